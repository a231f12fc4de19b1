import { Budget } from "../../strategies/core/budget.js";
import type { HelpAnswer, HelpItem, HelpVerdict, Helpers } from "../../strategies/core/helpers.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import type { Strategy } from "../../strategies/core/strategy.js";
import { findStrategy } from "../../strategies/registry.js";
import { decodeProblem, encodeProblem, startSolution } from "../queue/help-items.js";

/** Longest an in-process helper searches one item, whatever the item asks (the check stays short). */
const ITEM_SECONDS_CAP = 0.2;

/**
 * Helpers for the conformance kit, in process: each of `count` helpers answers one offered item
 * per collect, searched with the strategy the item names after a round trip through the wire form
 * (help-items.ts), as a worker would. It counts what the strategy did, to check the promises.
 */
export class InProcessHelpers implements Helpers {
  offers = 0;
  readonly verdicts: Record<HelpVerdict, number> = { merged: 0, stale: 0, not_better: 0 };
  private nextTicket = 1;
  private readonly queue: { ticket: number; item: HelpItem }[] = [];

  constructor(private readonly count: number) {}

  available(): number {
    return this.count;
  }

  offer(item: HelpItem): number {
    this.offers++;
    const ticket = this.nextTicket++;
    this.queue.push({ ticket, item });
    return ticket;
  }

  collect(): HelpAnswer[] {
    return this.queue.splice(0, this.count).map(({ ticket, item }) => {
      const problem = decodeProblem(JSON.parse(JSON.stringify(encodeProblem(item.problem))) as ReturnType<typeof encodeProblem>);
      const budget = Budget.forSeconds(Math.min(ITEM_SECONDS_CAP, item.seconds), item.seed);
      return { ticket, solution: findStrategy(item.strategy).solve(problem, budget, startSolution(item.start.routes)) };
    });
  }

  settled(_ticket: number, verdict: HelpVerdict): void {
    this.verdicts[verdict]++;
  }
}

export type Judge = (p: CompiledProblem, s: Solution) => { ok: true; cost: number } | { ok: false; why: string };

/**
 * A cooperative strategy with zero, one and two helpers on `problem`: every answer feasible by the
 * evaluator, and with zero helpers not a single item offered (the single worker's search).
 */
export function checkCooperative(
  strategy: Strategy,
  problem: CompiledProblem,
  seconds: number,
  seed: number,
  judge: Judge,
): { ok: boolean; detail: string } {
  const parts: string[] = [];
  for (const count of [0, 1, 2]) {
    const helpers = new InProcessHelpers(count);
    const budget = Budget.forSeconds(seconds, seed);
    budget.helpers = helpers;
    const verdict = judge(problem, strategy.solve(problem, budget));
    if (!verdict.ok) return { ok: false, detail: `with ${count} helper(s): ${verdict.why}` };
    if (count === 0 && helpers.offers > 0) return { ok: false, detail: `offered ${helpers.offers} item(s) with no helper available` };
    const merged = count > 0 ? `, ${helpers.offers} item(s) offered, ${helpers.verdicts.merged} merged` : "";
    parts.push(`${count} helper(s): cost ${verdict.cost.toFixed(2)}${merged}`);
  }
  return { ok: true, detail: `${parts.join("; ")} (${problem.customers.length} customers)` };
}
