import type { Budget } from "../core/budget.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { keepsLocks } from "../core/evaluate-locks.js";
import { groupsKept } from "../core/evaluate-visits.js";
import { evaluateRoute } from "../core/evaluator.js";
import { routeWorkload } from "../core/evaluate-balance.js";
import { denseMatrixRefusal, emptySolution, tripRulesRefusal, type CompiledProblem, type Solution } from "../core/problem.js";
import { STRATEGY_FEATURES, type Strategy } from "../core/strategy.js";

/**
 * Solutions enumerated at most. A solution is one ordering of the customers cut into one
 * (possibly empty) piece per vehicle, so there are n! * C(n + k - 1, k - 1) of them for n
 * customers and k vehicles: 6 for 3 customers on one vehicle, 15,120 for 5 customers on 5 vehicles.
 * Chosen so that the whole enumeration stays well under the few milliseconds a genetic search
 * needs merely to build its first population (measured in BENCHMARKS.md, pipeline bench).
 */
export const EXACT_MAX_SOLUTIONS = 20_000;
/**
 * Work cap: solutions times (customers + vehicles), as scoring one solution walks every vehicle.
 * Keeps a request with one customer and thousands of vehicles (few solutions, each long to
 * score, and a recursion as deep as the fleet) with the other strategies.
 */
const EXACT_MAX_WORK = 250_000;
/** How many candidates between two looks at the deadline and the abort flag. */
const CHECK_EVERY = 512;

/** n! * C(n + k - 1, k - 1), or Infinity once it passes `cap`. */
export function solutionCount(customers: number, vehicles: number, cap = EXACT_MAX_SOLUTIONS): number {
  if (vehicles < 1) return customers === 0 ? 1 : 0;
  let count = 1;
  for (let i = 2; i <= customers; i++) {
    count *= i;
    if (count > cap) return Number.POSITIVE_INFINITY;
  }
  // C(n + k - 1, n) built up one factor at a time stays an integer at every step.
  let binomial = 1;
  for (let i = 1; i <= customers; i++) {
    binomial = (binomial * (vehicles - 1 + i)) / i;
    if (count * binomial > cap) return Number.POSITIVE_INFINITY;
  }
  return count * binomial;
}

/**
 * Whether the exhaustive search of this many customers and vehicles fits its caps; `droppable`
 * of the customers may also be left unserved (optional stops, allow_unassigned), which multiplies
 * the solutions by every choice of the served ones.
 */
export function fitsExhaustive(customers: number, vehicles: number, droppable = 0): boolean {
  let count = 0;
  let binomial = 1;
  // Leaving out `out` of the droppable customers: C(droppable, out) choices of n - out served.
  for (let out = 0; out <= droppable; out++) {
    count += binomial * solutionCount(customers - out, vehicles);
    binomial = (binomial * (droppable - out)) / (out + 1);
  }
  return Number.isFinite(count) && count <= EXACT_MAX_SOLUTIONS && count * (customers + vehicles) <= EXACT_MAX_WORK;
}

/** Customers that may be left unserved: optional ones, or every one under allow_unassigned. */
function droppableCustomers(p: CompiledProblem): number[] {
  const rules = p.rules;
  if (!rules) return [];
  return Array.from(p.customers).filter((c) => rules.allowUnassigned || Number.isFinite(rules.skipPenalty[c]!));
}

/**
 * Exhaustive search for tiny problems: every solution is scored by the shared evaluator
 * (route by route, so every constraint the evaluator knows is honoured) and the cheapest feasible
 * one is returned, which is a proven optimum. A tiny request then costs well under a millisecond
 * of solver time instead of a metaheuristic's patience (pipeline speed).
 */
export const exact: Strategy = {
  name: "exact",
  kind: "exact",
  // Its enumeration plans no reload stops and knows no release times.
  features: STRATEGY_FEATURES.filter((f) => f !== "reloads" && f !== "release_times"),
  supports(p) {
    const refusal = denseMatrixRefusal(p, "exact") ?? tripRulesRefusal(p, "exact");
    if (refusal) return { ok: false, reason: refusal };
    if (!fitsExhaustive(p.customers.length, p.vehicleCount, droppableCustomers(p).length)) {
      const reason =
        `exhaustive search covers at most ${EXACT_MAX_SOLUTIONS} solutions (n! * C(n+k-1, k-1) for n customers and k vehicles, ` +
        `summed over the choices of optional customers served) and ${EXACT_MAX_WORK} solutions times (n + k)`;
      return { ok: false, reason };
    }
    return { ok: true };
  },
  solve(p: CompiledProblem, budget: Budget): Solution {
    const droppable = droppableCustomers(p);
    // Called beyond its size (a pinned strategy bypasses `supports`): the savings construction,
    // so that the strategy still answers a solution rather than enumerating for ever.
    if (!fitsExhaustive(p.customers.length, p.vehicleCount, droppable.length)) return clarkeWrightSolution(p);
    const search = new Enumeration(p, budget);
    // Every choice of the droppable customers to leave out (none without rules): an optional one
    // costs its skip penalty, a required one (allow_unassigned) counts first, so that a solution
    // serving more required customers always wins.
    for (let mask = 0; mask < 1 << droppable.length && !search.stopped; mask++) {
      const out = new Set<number>();
      let penalty = 0;
      let requiredOut = 0;
      droppable.forEach((c, bit) => {
        if ((mask & (1 << bit)) === 0) return;
        out.add(c);
        const price = p.rules!.skipPenalty[c]!;
        if (Number.isFinite(price)) penalty += price;
        else requiredOut++;
      });
      search.run(Int32Array.from(Array.from(p.customers).filter((c) => !out.has(c))), requiredOut, penalty);
    }
    budget.tick();
    // Stopped (deadline or cancel) before any feasible solution: the savings construction.
    const answer: Solution = search.best ?? (search.stopped ? clarkeWrightSolution(p) : emptySolution(p));
    if (search.best) budget.improved({ routes: answer.routes.map((r) => r.slice()) });
    return answer;
  },
};

/**
 * Every ordering of the served customers cut into one (possibly empty) piece per vehicle, scored
 * route by route by the shared evaluator; keeps the cheapest feasible one, fewest required
 * customers left out first.
 */
class Enumeration {
  best: Solution | null = null;
  stopped = false;
  private bestRequiredOut = Number.POSITIVE_INFINITY;
  private bestCost = Number.POSITIVE_INFINITY;
  private evaluated = 0;
  private vehicleOf: Int32Array | null = null;

  constructor(
    private readonly p: CompiledProblem,
    private readonly budget: Budget,
  ) {}

  /** Whether the candidate serves each same-vehicle group on one vehicle or leaves it out whole. */
  private keepsGroups(order: Int32Array, cuts: Int32Array): boolean {
    const vehicleOf = (this.vehicleOf ??= new Int32Array(this.p.nodeCount));
    vehicleOf.fill(-1);
    let from = 0;
    for (let v = 0; v < cuts.length; v++) {
      for (let k = from; k < cuts[v]!; k++) vehicleOf[order[k]!] = v;
      from = cuts[v]!;
    }
    return groupsKept(this.p.visits!, vehicleOf);
  }

  run(served: Int32Array, requiredOut: number, penalty: number): void {
    const p = this.p;
    const n = served.length;
    const k = p.vehicleCount;
    if (k === 0 || requiredOut > this.bestRequiredOut) return;
    const order = new Int32Array(n);
    // cuts[v] = index in `order` where vehicle v's piece ends; non-decreasing, cuts[k - 1] = n.
    const cuts = new Int32Array(k);
    const used = new Uint8Array(n);

    const scoreCuts = (): void => {
      let cost = penalty;
      const bound = requiredOut < this.bestRequiredOut ? Number.POSITIVE_INFINITY : this.bestCost;
      // The balance term is never negative: the routes' sum bounds the plan's cost from below.
      const balance = p.balance;
      let largest = 0;
      let from = 0;
      for (let v = 0; v < k; v++) {
        const to = cuts[v]!;
        if (to > from) {
          const score = evaluateRoute(p, v, order.subarray(from, to));
          if (!score.feasible) return;
          cost += score.cost;
          if (cost >= bound) return;
          if (balance) largest = Math.max(largest, routeWorkload(p, balance, v, order.subarray(from, to), score));
        } else if (!keepsLocks(p, v, order, 0)) {
          // An empty route is never scored, but a vehicle with locked stops may not be left empty.
          return;
        }
        from = to;
      }
      if (balance) cost += balance.costPerUnit * largest;
      // Every route empty (every served customer left out): the penalties alone must still beat the best.
      if (cost >= bound) return;
      if (p.visits?.groupOf && !this.keepsGroups(order, cuts)) return;
      this.bestCost = cost;
      this.bestRequiredOut = requiredOut;
      const routes: number[][] = [];
      from = 0;
      for (let v = 0; v < k; v++) {
        routes.push(Array.from(order.subarray(from, cuts[v]!)));
        from = cuts[v]!;
      }
      this.best = { routes };
    };

    // Every non-decreasing sequence of cut points: vehicle v takes order[cuts[v-1], cuts[v]).
    const cutAt = (v: number, min: number): void => {
      if (this.stopped) return;
      if (v === k - 1) {
        cuts[v] = n;
        scoreCuts();
        if (++this.evaluated % CHECK_EVERY === 0 && this.budget.exhausted()) this.stopped = true;
        return;
      }
      for (let c = min; c <= n && !this.stopped; c++) {
        cuts[v] = c;
        cutAt(v + 1, c);
      }
    };

    // Heap-free permutation by depth-first placement of unused customers.
    const place = (depth: number): void => {
      if (this.stopped) return;
      if (depth === n) {
        cutAt(0, 0);
        return;
      }
      for (let i = 0; i < n && !this.stopped; i++) {
        if (used[i]) continue;
        used[i] = 1;
        order[depth] = served[i]!;
        place(depth + 1);
        used[i] = 0;
      }
    };

    place(0);
  }
}
