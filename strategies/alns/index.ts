import { baseRulesRefusal } from "../core/base-rules-refusal.js";
import { tinyProblemPatience, type Budget } from "../core/budget.js";
import { denseMatrixRefusal, type CompiledProblem, type Solution } from "../core/problem.js";
import { regretInsertion } from "../core/repair.js";
import type { Strategy } from "../core/strategy.js";
import { Workspace } from "../core/workspace.js";
import { clarkeWrightSolution } from "../clarke-wright/index.js";
import { sweepSolution } from "../sweep/index.js";
import { DESTROY_OPERATORS } from "./destroy.js";
import { WorkspaceSearch } from "../ils/workspace-search.js";
import { priceRange, timeReference } from "../core/penalty-scale.js";
import { evaluateSolution } from "../core/evaluator.js";
import { solverNow } from "../core/clock.js";

const REPAIRS: readonly { name: string; k: number; noise: number }[] = [
  { name: "greedy", k: 1, noise: 0 },
  { name: "greedy-noise", k: 1, noise: 0.2 },
  { name: "regret-2", k: 2, noise: 0 },
  { name: "regret-3", k: 3, noise: 0 },
];

/** Adaptive weights (Ropke & Pisinger): scores for a new best, an improvement, an acceptance. */
const SCORE_BEST = 33;
const SCORE_BETTER = 9;
const SCORE_ACCEPTED = 13;
const SEGMENT = 100;
/** Iterations between adjustments of the violation weight (penalised search). */
const WEIGHT_SEGMENT = 25;
const REACTION = 0.1;

class Roulette {
  weights: number[];
  scores: number[];
  uses: number[];
  constructor(size: number) {
    this.weights = Array(size).fill(1);
    this.scores = Array(size).fill(0);
    this.uses = Array(size).fill(0);
  }
  pick(r: number): number {
    const total = this.weights.reduce((a, b) => a + b, 0);
    let x = r * total;
    for (let i = 0; i < this.weights.length; i++) {
      x -= this.weights[i]!;
      if (x <= 0) return i;
    }
    return this.weights.length - 1;
  }
  reward(i: number, score: number): void {
    this.scores[i] = this.scores[i]! + score;
    this.uses[i] = this.uses[i]! + 1;
  }
  update(): void {
    for (let i = 0; i < this.weights.length; i++) {
      if (this.uses[i]! > 0) this.weights[i] = (1 - REACTION) * this.weights[i]! + (REACTION * this.scores[i]!) / this.uses[i]!;
      this.weights[i] = Math.max(0.05, this.weights[i]!);
      this.scores[i] = 0;
      this.uses[i] = 0;
    }
  }
}

/** About the cost of one minute of driving: a neutral starting price for a minute of violation. */
function initialViolationWeight(p: CompiledProblem): number {
  let unit = 0;
  let speed = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    unit += p.unitCost[v]!;
    speed += p.time!.speed[v]!;
  }
  return timeReference(unit / p.vehicleCount, speed / p.vehicleCount);
}

/** Up to this many customers a full regret-3 construction is affordable as a third candidate. */
const REGRET_CONSTRUCTION_LIMIT = 400;

/**
 * The best of the savings, (with coordinates) sweep and, on moderate sizes, regret-3
 * constructions. Regret packs tight fleets best (it places hard-to-place customers first), which
 * matters when routes are limited by duration or windows.
 */
function initialSolution(p: CompiledProblem, search: WorkspaceSearch): Solution {
  const candidates = [clarkeWrightSolution(p)];
  if (p.coords && p.customers.length <= 1000) candidates.push(sweepSolution(p, 0, p.time ? null : search));
  if (p.customers.length <= REGRET_CONSTRUCTION_LIMIT) {
    const ws = new Workspace(p);
    regretInsertion(ws, 3, null, 0, Number.POSITIVE_INFINITY);
    candidates.push(ws.solution());
  }
  let best = candidates[0]!;
  let bestCost = new Workspace(p, best).cost();
  for (const c of candidates.slice(1)) {
    const cost = new Workspace(p, c).cost();
    if (cost < bestCost) {
      best = c;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * Adaptive large neighbourhood search: destroy (random, worst, related, route) and repair
 * (greedy, regret-k) chosen by adaptive roulette, the one local search (ils/workspace-search.ts)
 * on the result, simulated-annealing acceptance cooling with the budget. Anytime: returns the best found.
 */
export const alns: Strategy = {
  name: "alns",
  kind: "search",
  features: ["capacities", "distance_matrix", "time_windows", "multiple_depots", "mixed_fleet", "min_vehicles"],
  supports: (p) => {
    const refusal = denseMatrixRefusal(p, "alns") ?? baseRulesRefusal(p, "alns", alns.features);
    return refusal ? { ok: false, reason: refusal } : { ok: true };
  },
  solve(p: CompiledProblem, budget: Budget, initial?: Solution): Solution {
    const started = solverNow();
    const rng = budget.rng;
    // A feasible starting solution (e.g. the feasibility phase's) replaces the constructions.
    // The one local search (search/local-search.ts) educates the Workspace's solutions.
    const search = new WorkspaceSearch(p);
    const stop = () => budget.exhausted();
    const ws = new Workspace(p, initial && evaluateSolution(p, initial).feasible ? initial : initialSolution(p, search));
    regretInsertion(ws, 2);
    search.educate(ws, rng, stop);
    // Tight time problems whose construction left customers out search through priced
    // violations; the weight adapts so that roughly a quarter of the solutions visited are infeasible.
    const penalised = p.time !== null && !ws.isFeasible();
    if (penalised) ws.violationWeight = initialViolationWeight(p);
    // The weight's bounds [1e-4, 1e7], relative to its scale-free start.
    const weightRange = priceRange(penalised ? initialViolationWeight(p) : 1, 1e-4, 1e7);
    let current = ws.solution();
    let currentCost = ws.cost();
    let best = current;
    let bestCost = currentCost;
    let bestFeasible: Solution | null = ws.isFeasible() ? current : null;
    if (bestFeasible) budget.improved(bestFeasible);
    let bestFeasibleCost = bestFeasible ? currentCost : Number.POSITIVE_INFINITY;
    let infeasibleVisits = 0;
    const customers = p.customers.length;
    if (customers === 0) return best;

    const destroys = new Roulette(DESTROY_OPERATORS.length);
    const repairs = new Roulette(REPAIRS.length);
    // Start accepting 5%-worse solutions half the time; end nearly greedy.
    const startTemperature = Math.max(1e-9, (0.05 * (currentCost - ws.penalty * ws.unassigned.length)) / customers / Math.LN2);
    const endTemperature = startTemperature / 200;
    const minRemove = Math.min(customers, 4);
    const maxRemove = Math.max(minRemove, Math.min(customers, Math.max(8, Math.round(0.3 * customers)), 60));

    // After a long run without a new best: tiny problems stop (their optimum is found long before
    // any deadline); larger ones restart from the best solution with the temperature raised again.
    const stopAfter = tinyProblemPatience(customers);
    const patience = stopAfter ?? Math.max(2000, 300 * customers);
    let sinceBest = 0;
    let reheatedAt = started;
    let iteration = 0;
    while (!budget.tick()) {
      iteration++;
      sinceBest++;
      if (sinceBest >= patience) {
        if (stopAfter !== null) break;
        ws.load(best);
        current = best;
        currentCost = bestCost;
        reheatedAt = solverNow();
        sinceBest = 0;
      }
      const d = destroys.pick(rng.next());
      const r = repairs.pick(rng.next());
      const count = minRemove + rng.int(maxRemove - minRemove + 1);
      DESTROY_OPERATORS[d]!.run(ws, count, rng);
      regretInsertion(ws, REPAIRS[r]!.k, rng, REPAIRS[r]!.noise);
      // Every repaired solution is educated: the one search re-examines only the routes the destroy and repair rewrote.
      search.educate(ws, rng, stop);
      const cost = ws.cost();
      const feasibleNow = ws.isFeasible();
      if (!feasibleNow) infeasibleVisits++;
      if (feasibleNow && cost < bestFeasibleCost - 1e-9) {
        bestFeasible = ws.solution();
        bestFeasibleCost = cost;
        budget.improved(bestFeasible);
      }
      const temperature = startTemperature * Math.pow(endTemperature / startTemperature, budget.progress(reheatedAt));
      let score = 0;
      if (cost < bestCost - 1e-9) {
        best = ws.solution();
        bestCost = cost;
        current = best;
        currentCost = cost;
        score = SCORE_BEST;
        sinceBest = 0;
      } else if (cost < currentCost - 1e-9) {
        current = ws.solution();
        currentCost = cost;
        score = SCORE_BETTER;
      } else if (rng.next() < Math.exp(-(cost - currentCost) / temperature)) {
        current = ws.solution();
        currentCost = cost;
        score = SCORE_ACCEPTED;
      } else {
        ws.load(current);
      }
      destroys.reward(d, score);
      repairs.reward(r, score);
      if (iteration % SEGMENT === 0) {
        destroys.update();
        repairs.update();
      }
      if (penalised && iteration % WEIGHT_SEGMENT === 0) {
        const share = infeasibleVisits / WEIGHT_SEGMENT;
        if (share > 0.35) ws.violationWeight = Math.min(weightRange.max, ws.violationWeight * 1.5);
        else if (share < 0.15) ws.violationWeight = Math.max(weightRange.min, ws.violationWeight / 1.5);
        infeasibleVisits = 0;
        // Costs changed meaning: re-score the reference points under the new weight.
        const here = ws.solution();
        ws.load(current);
        currentCost = ws.cost();
        ws.load(best);
        bestCost = ws.cost();
        ws.load(here);
      }
    }
    return bestFeasible ?? best;
  },
};
