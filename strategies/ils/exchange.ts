import type { Budget } from "../core/budget.js";
import { solverNow } from "../core/clock.js";
import { evaluateSolution } from "../core/evaluator.js";
import { HELP_ROUND_TRIP_MS, type HelpVerdict, type Helpers } from "../core/helpers.js";
import { cloneSolution, type CompiledProblem, type Solution } from "../core/problem.js";

/**
 * From this size a whole-problem item gains: the owner's search then makes few enough iterations
 * in a short budget that a second search from the same best, on another seed, finds improvements
 * it would not have reached; smaller problems are solved near their best by one worker alone.
 */
export const COOPERATIVE_MIN_CUSTOMERS = 400;
/**
 * Above this size a whole problem is the decomposition's (strategies/select.ts): its matrix would
 * be too heavy to send and to rebuild on every helper, where `large` hands out groups instead.
 */
export const COOPERATIVE_MAX_CUSTOMERS = 2000;
/** An item's search: long enough for a search from the owner's best to move off it, short enough to exchange often. */
const ITEM_SECONDS = 3;
/**
 * A helper's first item is a search of its own from the owner's construction, as long as a helper
 * searches one item: started from the owner's best, a search stays in the owner's basin (its
 * number of routes above all), where seeds differ little; started afresh, seeds differ by whole
 * routes, and the best of several searches is kept.
 */
const FRESH_ITEM_SECONDS = 5;
/** Shorter items are not worth a whole-problem round trip. */
const MIN_ITEM_SECONDS = 1;
/** No item is due later than this before the owner's own deadline: adopting an answer must still fit. */
const END_MARGIN_MS = 500;
/** How often the owner looks for answers and available helpers: often enough, but not every iteration. */
const POLL_MS = 50;

/**
 * Whether a problem's items can carry everything that defines it (the item's wire form carries
 * capacities, windows, service times, depots and vehicles, not the rules).
 */
export function exchangeable(p: CompiledProblem): boolean {
  if (p.rules || p.loads || p.locks || p.reassignment || p.travel || p.trips || p.visits || p.balance) return false;
  const n = p.customers.length;
  return n >= COOPERATIVE_MIN_CUSTOMERS && n <= COOPERATIVE_MAX_CUSTOMERS && p.dist.length === p.nodeCount * p.nodeCount;
}

/**
 * Several independent searches on one problem, best kept: while helpers are available, the best
 * plan known (the owner's or a helper's) goes out as an item ("search this problem from this plan
 * with this seed for a few seconds", the same strategy on another seed stream), and an answer the
 * shared evaluator finds cheaper than every plan known is kept beside the owner's search. The
 * owner's own search never takes it: its trajectory is the single worker's, so the answer, the
 * better of the two, is never dearer than one worker's on the same seed and iterations. With no
 * helper available nothing is offered and nothing drawn from the owner's random stream.
 */
export class SearchExchange {
  private readonly out = new Set<number>();
  private nextPollMs = 0;
  private items = 0;
  private judged: { solution: Solution; cost: number } | null = null;
  /** The cheapest helper answer, when it beat every plan known as it came in. */
  private kept: { solution: Solution; cost: number } | null = null;
  /** Fresh searches still to offer: one per helper seen available at once. */
  private freshOffered = 0;
  private readonly unmapImprovements: () => void;

  constructor(
    private readonly p: CompiledProblem,
    private readonly helpers: Helpers,
    private readonly strategy: string,
    private readonly deadlineMs: number,
    /** The owner's construction, where a helper's first search starts; null: every item starts from the best. */
    private readonly construction: Solution | null = null,
    /** Told of a kept answer as of a new best; the owner's later bests reach it only when cheaper than the kept one. */
    private readonly budget: Budget | null = null,
  ) {
    this.unmapImprovements = budget?.mapImprovements((own) => this.betterOf(own)) ?? (() => {});
  }

  /**
   * For a search whose budget carries helpers, on a problem worth it; otherwise null (the single
   * worker's search), without building the construction's copy.
   */
  static forBudget(
    p: CompiledProblem,
    budget: Budget,
    strategy: string,
    construction: (() => Solution) | null = null,
  ): SearchExchange | null {
    if (!budget.helpers || !exchangeable(p)) return null;
    return new SearchExchange(p, budget.helpers, strategy, budget.deadlineMs, construction?.() ?? null, budget);
  }

  /** Judges the answers in against the best plan known, then offers that plan to available helpers. */
  step(ownBest: () => Solution | null): void {
    const now = solverNow();
    if (now < this.nextPollMs) return;
    this.nextPollMs = now + POLL_MS;
    this.judge(ownBest());
    this.offer(this.bestKnown(ownBest()), now);
  }

  /** The search's answer: the owner's `own`, or the kept helper answer where the evaluator finds it cheaper. */
  finish(own: Solution): Solution {
    this.unmapImprovements();
    return this.betterOf(own);
  }

  private betterOf(own: Solution): Solution {
    if (this.kept === null) return own;
    const score = evaluateSolution(this.p, own);
    return score.feasible && score.missing.length === 0 && score.cost <= this.kept.cost ? own : this.kept.solution;
  }

  private bestKnown(own: Solution | null): Solution | null {
    if (this.kept === null || this.kept.cost >= this.costOf(own)) return own;
    return this.kept.solution;
  }

  private judge(own: Solution | null): void {
    const verdicts: { ticket: number; verdict: HelpVerdict }[] = [];
    const bar = Math.min(this.costOf(own), this.kept?.cost ?? Number.POSITIVE_INFINITY);
    let winner: { ticket: number; solution: Solution; cost: number } | null = null;
    for (const answer of this.helpers.collect()) {
      if (!this.out.delete(answer.ticket) || !answer.solution) continue;
      const cost = this.answerCost(answer.solution);
      if (cost === null || cost >= bar - 1e-7 || (winner && cost >= winner.cost)) {
        verdicts.push({ ticket: answer.ticket, verdict: "not_better" });
        continue;
      }
      if (winner) verdicts.push({ ticket: winner.ticket, verdict: "not_better" });
      winner = { ticket: answer.ticket, solution: answer.solution, cost };
    }
    if (winner) {
      this.kept = { solution: winner.solution, cost: winner.cost };
      this.budget?.improved(cloneSolution(winner.solution));
      verdicts.push({ ticket: winner.ticket, verdict: "merged" });
    }
    for (const v of verdicts) this.helpers.settled(v.ticket, v.verdict);
  }

  private offer(best: Solution | null, now: number): void {
    if (best === null) return;
    while (this.out.size < this.helpers.available()) {
      const fresh = this.construction !== null && this.freshOffered < this.helpers.available();
      const length = fresh ? FRESH_ITEM_SECONDS : ITEM_SECONDS;
      const dueMs = Math.min(now + length * 1000 + HELP_ROUND_TRIP_MS, this.deadlineMs - END_MARGIN_MS);
      const seconds = Math.min(length, (dueMs - now - HELP_ROUND_TRIP_MS) / 1000);
      if (seconds < MIN_ITEM_SECONDS) return;
      if (fresh) this.freshOffered++;
      const start = fresh ? this.construction! : best;
      const item = { problem: this.p, start, strategy: this.strategy, seed: itemSeed(++this.items), seconds };
      this.out.add(this.helpers.offer(item, dueMs));
    }
  }

  /** A plan of the owner's scored by the evaluator, once per plan. */
  private costOf(best: Solution | null): number {
    if (best === null) return Number.POSITIVE_INFINITY;
    if (this.judged?.solution !== best) this.judged = { solution: best, cost: evaluateSolution(this.p, best).cost };
    return this.judged.cost;
  }

  /** A feasible answer's cost by the shared evaluator; null for anything else (malformed, infeasible, incomplete). */
  private answerCost(s: Solution): number | null {
    const p = this.p;
    if (!Array.isArray(s.routes) || s.routes.length !== p.vehicleCount) return null;
    const known = (c: number) => Number.isInteger(c) && c >= 0 && c < p.nodeCount && p.isDepot[c] === 0;
    if (!s.routes.every((r) => Array.isArray(r) && r.every(known))) return null;
    const score = evaluateSolution(p, s);
    return score.feasible && score.missing.length === 0 && score.duplicated.length === 0 ? score.cost : null;
  }
}

/** The k-th item's seed: a stream of its own, so the owner's random draws are the single worker's. */
function itemSeed(k: number): number {
  return (Math.imul(k, 0x9e3779b1) ^ 0x5bd1e995) >>> 1;
}
