import { expect } from "chai";
import { baseRequest } from "../../src/conformance/families.js";
import { checkCooperative } from "../../src/conformance/cooperative-check.js";
import { judge } from "../../src/conformance/kit.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { solverNow } from "../../strategies/core/clock.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { HelpAnswer, HelpItem, HelpVerdict, Helpers } from "../../strategies/core/helpers.js";
import type { Solution } from "../../strategies/core/problem.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { hgs } from "../../strategies/hgs/index.js";
import { COOPERATIVE_MIN_CUSTOMERS, SearchExchange } from "../../strategies/ils/exchange.js";

/** Helpers whose answers the test writes: each offered item is kept, and answered with what the test puts in `answers`. */
class ScriptedHelpers implements Helpers {
  readonly offered: { ticket: number; item: HelpItem }[] = [];
  readonly verdicts = new Map<number, HelpVerdict>();
  readonly answers: HelpAnswer[] = [];
  constructor(public count: number) {}
  available(): number {
    return this.count;
  }
  offer(item: HelpItem): number {
    const ticket = this.offered.length + 1;
    this.offered.push({ ticket, item });
    return ticket;
  }
  collect(): HelpAnswer[] {
    return this.answers.splice(0);
  }
  settled(ticket: number, verdict: HelpVerdict): void {
    this.verdicts.set(ticket, verdict);
  }
}

/** The exchange looks at its helpers at most every few milliseconds of the solver's clock. */
function nextPoll(): void {
  const until = solverNow() + 60;
  while (solverNow() < until);
}

describe("several searches of one problem, best kept (ils/exchange.ts)", function () {
  this.timeout(60_000);
  const p = compileRequest(baseRequest(COOPERATIVE_MIN_CUSTOMERS, Math.ceil(COOPERATIVE_MIN_CUSTOMERS / 8), 5)).problem;
  const start = clarkeWrightSolution(p);
  const improved = hgs.solve(p, Budget.forSeconds(0.5, 3), start);
  const cost = (s: Solution) => evaluateSolution(p, s).cost;

  it("starts from feasible plans, the second cheaper by the evaluator", () => {
    expect(evaluateSolution(p, start).feasible).to.equal(true);
    expect(evaluateSolution(p, improved).feasible).to.equal(true);
    expect(cost(improved)).to.be.lessThan(cost(start));
  });

  /** One item offered from the owner's `best`, answered with `answer`; what the exchange kept and its verdict. */
  function exchangeOnce(best: Solution, answer: Solution) {
    const helpers = new ScriptedHelpers(1);
    const exchange = new SearchExchange(p, helpers, "hgs", solverNow() + 60_000);
    exchange.step(() => best);
    expect(helpers.offered, "one item for one helper").to.have.length(1);
    expect(helpers.offered[0]!.item.start).to.equal(best);
    helpers.answers.push({ ticket: 1, solution: answer });
    nextPoll();
    exchange.step(() => best);
    return { answer: exchange.finish(best), verdict: helpers.verdicts.get(1), helpers, exchange };
  }

  it("keeps an answer the evaluator finds cheaper than the owner's best, and offers it next", () => {
    const { answer, verdict, helpers, exchange } = exchangeOnce(start, improved);
    expect(answer).to.equal(improved);
    expect(verdict).to.equal("merged");
    nextPoll();
    exchange.step(() => start);
    expect(helpers.offered, "the helper free again takes a second item").to.have.length(2);
    expect(helpers.offered[1]!.item.start, "from the best plan known, the helper's").to.equal(improved);
  });

  it("keeps the owner's best against a dearer answer, an infeasible one and a malformed one", () => {
    const dearer = exchangeOnce(improved, start);
    expect(dearer.answer).to.equal(improved);
    expect(dearer.verdict).to.equal("not_better");
    // Every customer on one vehicle: far over its capacity, though shorter than some plans.
    const overloaded = { routes: p.vehicleCount > 0 ? [[...p.customers], ...Array.from({ length: p.vehicleCount - 1 }, () => [])] : [] };
    expect(evaluateSolution(p, overloaded).feasible).to.equal(false);
    expect(exchangeOnce(start, overloaded).answer).to.equal(start);
    const missing = { routes: improved.routes.map((r, v) => (v === 0 ? [] : r)) };
    expect(exchangeOnce(start, missing).answer).to.equal(start);
    expect(exchangeOnce(start, { routes: [[p.nodeCount + 5]] }).answer).to.equal(start);
  });

  /** Helpers that answer every item at once with `answer`, as if they had searched. */
  class AnsweringHelpers extends ScriptedHelpers {
    private answered = 0;
    constructor(private readonly answer: Solution) {
      super(1);
    }
    override collect(): HelpAnswer[] {
      const due = this.offered.slice(this.answered).map((o) => ({ ticket: o.ticket, solution: this.answer }));
      this.answered = this.offered.length;
      return due;
    }
  }

  it("leaves the owner's search as a single worker's: the answer is the cheaper of its own and the helpers'", () => {
    const solveWith = (helpers: Helpers | null) => {
      const budget = new Budget(Number.POSITIVE_INFINITY, 4, 400);
      budget.helpers = helpers;
      const heard: Solution[] = [];
      budget.onImprovement((s) => heard.push(s));
      return { answer: hgs.solve(p, budget), heard };
    };
    const alone = solveWith(null).answer;
    const withDearer = solveWith(new AnsweringHelpers(start));
    expect(withDearer.answer.routes, "a dearer helper answer changes nothing").to.deep.equal(alone.routes);
    const best = hgs.solve(p, Budget.forSeconds(2, 9), improved);
    expect(cost(best)).to.be.lessThan(cost(alone));
    const withBetter = solveWith(new AnsweringHelpers(best));
    expect(withBetter.answer.routes, "a cheaper helper answer is the answer").to.deep.equal(best.routes);
    const last = withBetter.heard.at(-1)!;
    expect(cost(last), "the last best heard is the answer's, never the owner's dearer one").to.be.closeTo(cost(best), 1e-6);
    const firstAtBest = withBetter.heard.findIndex((h) => cost(h) <= cost(best) + 1e-6);
    expect(firstAtBest, "the helper's answer is heard").to.be.at.least(0);
    for (const s of withBetter.heard.slice(firstAtBest))
      expect(cost(s), "no dearer plan of the owner's heard after it").to.be.at.most(cost(best) + 1e-6);
  });

  it("offers nothing with no helper available, and nothing on a problem below its size", () => {
    const none = new ScriptedHelpers(0);
    new SearchExchange(p, none, "hgs", solverNow() + 60_000).step(() => start);
    expect(none.offered).to.have.length(0);
    const small = compileRequest(baseRequest(100, 13, 5)).problem;
    const budget = Budget.forSeconds(5, 1);
    budget.helpers = new ScriptedHelpers(2);
    expect(SearchExchange.forBudget(small, budget, "hgs")).to.equal(null);
    expect(SearchExchange.forBudget(p, budget, "hgs")).to.not.equal(null);
  });

  it("gives hgs the same routes with helpers present but none available as without helpers", () => {
    const solveWith = (helpers: Helpers | null) => {
      const budget = new Budget(Number.POSITIVE_INFINITY, 4, 400);
      budget.helpers = helpers;
      return hgs.solve(p, budget);
    };
    const alone = solveWith(null);
    const idle = new ScriptedHelpers(0);
    expect(solveWith(idle).routes).to.deep.equal(alone.routes);
    expect(idle.offered).to.have.length(0);
  });

  it("passes the conformance kit's cooperative check with hgs: items offered, answers evaluator-feasible", () => {
    const check = checkCooperative(hgs, p, 4, 7, judge);
    expect(check.ok, check.detail).to.equal(true);
    const offered = [...check.detail.matchAll(/(\d+) item\(s\) offered/g)].map((m) => Number(m[1]));
    expect(offered, check.detail).to.have.length(2);
    for (const count of offered) expect(count, "items offered with helpers available").to.be.greaterThan(0);
  });
});
