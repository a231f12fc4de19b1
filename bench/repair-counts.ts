/**
 * What the identical-vehicles iterated search's repairs do, counted over one solve: how many
 * outcomes are infeasible, how many get a repair, how many repairs end feasible, and how many
 * repaired candidates are accepted or become the new best, split by where the outcome's penalised
 * cost stood before the repair against the most the acceptance would take or the best's cost
 * (its reach). Also the repairs' share of the search's CPU time and of its examined customers.
 * The counters wrap the classes' methods, so the solve itself runs a little slower:
 * `SOLVER_CLOCK=cpu node --import tsx bench/repair-counts.ts REQUEST.json SECONDS [SEED]`
 * (the variables of bench/settings-env.ts apply, e.g. SOLVER_ILS_REPAIR).
 */
import { readFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { LateAcceptance } from "../strategies/ils/acceptance.js";
import { IdenticalVehiclesBest, IdenticalVehiclesEducation, InPlaceCurrent } from "../strategies/ils/identical-vehicles-parts.js";
import { selectStrategy } from "../strategies/select.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";
import { cpuMs, wrapMethod } from "./method-wrap.js";

interface Pending {
  repaired: boolean;
  feasibleAfter: boolean;
  withinReach: boolean | null;
  /** Pre-repair penalised cost over the reach, minus 1. */
  overReach: number | null;
}
const counts = {
  outcomes: 0,
  infeasibleOutcomes: 0,
  infeasibleBeforeBest: 0,
  repairs: 0,
  repairsBeforeBest: 0,
  repairsFeasible: 0,
  withinReach: 0,
  withinReachFeasible: 0,
  withinReachAccepted: 0,
  withinReachNewBest: 0,
  outOfReach: 0,
  outOfReachAccepted: 0,
  outOfReachNewBest: 0,
  unrepairedInfeasibleWithinReach: 0,
  unrepairedInfeasibleAccepted: 0,
  newBests: 0,
  repairCpuMs: 0,
  repairExamined: 0,
};
const overReachOfAccepted: number[] = [];
let pending: Pending | null = null;
let acceptance: LateAcceptance | null = null;
let best: IdenticalVehiclesBest | null = null;
let current: InPlaceCurrent | null = null;
let newBest = false;

/** The most the late acceptance takes now (current or the history's slot), or the best's cost if higher. */
function reach(): number | null {
  if (acceptance === null || current === null) return null;
  const a = acceptance as unknown as { history: Float64Array; iteration: number; tolerance: number };
  const bound = Math.max(current.cost(), a.history[a.iteration % a.history.length]!) - a.tolerance;
  const bestCost = best ? (best as unknown as { cost: number }).cost : Number.POSITIVE_INFINITY;
  return Number.isFinite(bestCost) ? Math.max(bound, bestCost) : bound;
}

wrapMethod(
  InPlaceCurrent,
  "beginCandidate",
  (original) =>
    function (this: InPlaceCurrent, ...args) {
      current = this;
      return original.apply(this, args);
    },
);
wrapMethod(
  IdenticalVehiclesEducation,
  "educate",
  (original) =>
    function (this: IdenticalVehiclesEducation, ...args) {
      pending = { repaired: false, feasibleAfter: false, withinReach: null, overReach: null };
      const candidate = original.apply(this, args) as { cost: number; feasible: boolean };
      counts.outcomes++;
      pending.feasibleAfter = candidate.feasible;
      return candidate;
    },
);
wrapMethod(
  IdenticalVehiclesEducation,
  "repair",
  (original) =>
    function (this: IdenticalVehiclesEducation, ...args) {
      const ls = (this as unknown as { ls: { totalCost(): number; examined: number } }).ls;
      const before = ls.totalCost();
      const r = reach();
      if (pending) {
        pending.repaired = true;
        pending.withinReach = r === null ? null : before < r;
        pending.overReach = r === null ? null : before / r - 1;
      }
      const started = cpuMs();
      const examined = ls.examined;
      const out = original.apply(this, args);
      counts.repairCpuMs += cpuMs() - started;
      counts.repairExamined += ls.examined - examined;
      return out;
    },
);
wrapMethod(
  IdenticalVehiclesEducation,
  "repairs",
  (original) =>
    function (this: IdenticalVehiclesEducation, ...args) {
      // Called for every infeasible outcome of the descent.
      counts.infeasibleOutcomes++;
      if (!(args[0] as boolean)) counts.infeasibleBeforeBest++;
      const yes = original.apply(this, args) as boolean;
      if (!yes && pending) {
        const ls = (this as unknown as { ls: { totalCost(): number } }).ls;
        const r = reach();
        pending.withinReach = r === null ? null : ls.totalCost() < r;
      }
      return yes;
    },
);
wrapMethod(
  IdenticalVehiclesBest,
  "consider",
  (original) =>
    function (this: IdenticalVehiclesBest, ...args) {
      best = this;
      newBest = original.apply(this, args) as boolean;
      if (newBest) counts.newBests++;
      return newBest;
    },
);
wrapMethod(
  LateAcceptance,
  "accept",
  (original) =>
    function (this: LateAcceptance, ...args) {
      acceptance = this;
      const accepted = original.apply(this, args) as boolean;
      const p = pending;
      pending = null;
      if (p?.repaired) {
        counts.repairs++;
        if (p.feasibleAfter) counts.repairsFeasible++;
        if (p.withinReach === null) counts.repairsBeforeBest++;
        else if (p.withinReach) {
          counts.withinReach++;
          if (p.feasibleAfter) counts.withinReachFeasible++;
          if (accepted) counts.withinReachAccepted++;
          if (newBest) counts.withinReachNewBest++;
        } else {
          counts.outOfReach++;
          if (accepted) counts.outOfReachAccepted++;
          if (newBest) counts.outOfReachNewBest++;
        }
        if ((accepted || newBest) && p.overReach !== null) overReachOfAccepted.push(p.overReach);
      } else if (p && !p.feasibleAfter) {
        if (p.withinReach) counts.unrepairedInfeasibleWithinReach++;
        if (accepted) counts.unrepairedInfeasibleAccepted++;
      }
      newBest = false;
      return accepted;
    },
);

const [file, secondsArg, seedArg] = process.argv.slice(2);
if (!file || !secondsArg) throw new Error("usage: repair-counts.ts REQUEST.json SECONDS [SEED]");
const { problem } = compileRequest(JSON.parse(readFileSync(file, "utf8")) as SolveRequestInput);
const strategy = selectStrategy(problem);
const budget = Budget.forSeconds(Number(secondsArg), seedArg ? Number(seedArg) : 1, undefined, undefined, benchSettings);
const started = cpuMs();
strategy.solve(problem, budget);
const total = cpuMs() - started;
const sorted = overReachOfAccepted.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    strategy: strategy.name,
    iterations: budget.iterationCount,
    ...counts,
    repairCpuShare: Number((counts.repairCpuMs / total).toFixed(3)),
    overReachOfAcceptedMax: sorted.at(-1) ?? null,
  }),
);
