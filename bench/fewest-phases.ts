/**
 * Where the iterated search's time goes under min_vehicles, phase by phase (the first plan on the
 * whole fleet, then the fixed fleet at the count the route elimination reached; a phase is told by
 * its model's route count). Per phase: iterations and their rate, CPU ms per education, each
 * constraint's kept share and both prices (geometric means), the repairs and how many ended feasible,
 * and the educations split by whether the current plan was feasible before the perturbation and
 * whether the outcome was (count, CPU ms and customers examined each), with the runs of iterations
 * whose current plan was infeasible. The counters wrap the classes' methods, so the solve runs a
 * little slower: the figures are for comparing phases within one run:
 * `SOLVER_CLOCK=cpu node --import tsx bench/fewest-phases.ts REQUEST.json SECONDS [SEED]`
 * (the variables of bench/settings-env.ts apply).
 */
import { readFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { IdenticalVehiclesEducation } from "../strategies/ils/identical-vehicles-parts.js";
import { IdenticalVehiclesRuin } from "../strategies/ils/identical-vehicles-ruin.js";
import { solveFewestVehicles } from "../strategies/search/fewest-vehicles.js";
import type { LocalSearch } from "../strategies/search/local-search.js";
import type { Penalties } from "../strategies/search/penalties.js";
import { PenaltyManager, type Outcome } from "../strategies/search/penalty-manager.js";
import { selectStrategy } from "../strategies/select.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";
import { cpuMs, wrapMethod } from "./method-wrap.js";

/** Educations of one kind: (current feasible?, outcome feasible?). */
interface Split {
  count: number;
  ms: number;
  examined: number;
}
interface Phase {
  routes: number;
  firstMs: number;
  lastMs: number;
  educations: number;
  educateMs: number;
  loadKept: number;
  warpKept: number;
  logLoadPrice: number;
  logWarpPrice: number;
  repairs: number;
  repairsFeasible: number;
  repairMs: number;
  split: Record<string, Split>;
  /** Lengths of the runs of iterations whose current plan was infeasible. */
  infeasibleRuns: number[];
  run: number;
}
const phases = new Map<number, Phase>();
function phaseOf(routes: number): Phase {
  let s = phases.get(routes);
  if (!s) {
    const now = cpuMs();
    s = {
      routes,
      firstMs: now,
      lastMs: now,
      educations: 0,
      educateMs: 0,
      loadKept: 0,
      warpKept: 0,
      logLoadPrice: 0,
      logWarpPrice: 0,
      repairs: 0,
      repairsFeasible: 0,
      repairMs: 0,
      split: {},
      infeasibleRuns: [],
      run: 0,
    };
    phases.set(routes, s);
  }
  return s;
}

type Educator = {
  ls: LocalSearch;
  constraints: { load(): boolean; warp(): boolean; all(): boolean };
  prices: { current: Penalties };
};
/** The phase of the education under way (the price manager's records count for it). */
let active: Phase | null = null;
/** Whether the plan the local search held before the last perturbation was feasible. */
let currentFeasible = true;
wrapMethod(
  IdenticalVehiclesRuin,
  "perturb",
  (original) =>
    function (this: unknown, ...args) {
      const ls = (this as { ls: LocalSearch }).ls;
      currentFeasible = true;
      for (let r = 0; r < ls.m.routes && currentFeasible; r++) if (ls.overloaded(r) || ls.timeWarpOf(r) > 1e-9) currentFeasible = false;
      return original.apply(this, args);
    },
);
wrapMethod(
  IdenticalVehiclesEducation,
  "educate",
  (original) =>
    function (this: unknown, ...args) {
      const self = this as Educator;
      const s = phaseOf(self.ls.m.routes);
      const started = cpuMs();
      const examined = self.ls.examined;
      active = s;
      const out = original.apply(this, args) as { feasible: boolean };
      active = null;
      const ms = cpuMs() - started;
      s.educations++;
      s.educateMs += ms;
      s.lastMs = cpuMs();
      s.logLoadPrice += Math.log10(self.prices.current.load);
      s.logWarpPrice += Math.log10(self.prices.current.timeWarp);
      const kind = `${currentFeasible ? "feasible" : "infeasible"} -> ${out.feasible ? "feasible" : "infeasible"}`;
      const split = (s.split[kind] ??= { count: 0, ms: 0, examined: 0 });
      split.count++;
      split.ms += ms;
      split.examined += self.ls.examined - examined;
      if (!currentFeasible) s.run++;
      else if (s.run > 0) {
        s.infeasibleRuns.push(s.run);
        s.run = 0;
      }
      return out;
    },
);
wrapMethod(
  IdenticalVehiclesEducation,
  "repair",
  (original) =>
    function (this: unknown, ...args) {
      const self = this as Educator;
      const s = phaseOf(self.ls.m.routes);
      const started = cpuMs();
      const out = original.apply(this, args);
      s.repairMs += cpuMs() - started;
      s.repairs++;
      if (self.constraints.all()) s.repairsFeasible++;
      return out;
    },
);
// The descent's outcome, before any repair: each constraint's kept share (recorded once per education).
wrapMethod(
  PenaltyManager,
  "record",
  (original) =>
    function (this: unknown, ...args) {
      const outcome = args[0] as Outcome;
      if (active && outcome.load) active.loadKept++;
      if (active && outcome.timeWarp) active.warpKept++;
      return original.apply(this, args);
    },
);

const [file, secondsArg, seedArg] = process.argv.slice(2);
if (!file || !secondsArg) throw new Error("usage: fewest-phases.ts REQUEST.json SECONDS [SEED]");
const request = { ...(JSON.parse(readFileSync(file, "utf8")) as SolveRequestInput), objective: "min_vehicles" } as SolveRequestInput;
const { problem } = compileRequest(request);
const strategy = selectStrategy(problem);
const budget = Budget.forSeconds(Number(secondsArg), seedArg ? Number(seedArg) : 1, undefined, undefined, benchSettings);
const solution = solveFewestVehicles(strategy, problem, budget);
const score = evaluateSolution(problem, solution);
console.log(
  `${file}: ${solution.routes.filter((r) => r.length > 0).length} vehicles, cost ${score.cost.toFixed(1)}, feasible ${score.feasible}`,
);
for (const s of phases.values()) {
  if (s.run > 0) s.infeasibleRuns.push(s.run);
  const n = Math.max(1, s.educations);
  const seconds = (s.lastMs - s.firstMs) / 1000;
  const runs = s.infeasibleRuns.sort((a, b) => a - b);
  const inRuns = runs.reduce((a, b) => a + b, 0);
  const split = Object.entries(s.split)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, v]) => `${kind} ${v.count} (${(v.ms / v.count).toFixed(2)} ms, ${Math.round(v.examined / v.count)} examined)`);
  const rate = (s.educations / seconds).toFixed(0);
  const perEducation = (s.educateMs / n).toFixed(2);
  console.log(
    `  ${s.routes} routes: ${s.educations} iterations in ${seconds.toFixed(2)} CPU s (${rate}/s), ${perEducation} ms an education`,
  );
  const repairs = `repairs ${(s.repairMs / n).toFixed(2)} ms an education, ${s.repairs} repairs, ${s.repairsFeasible} feasible after`;
  const kept = `kept load ${(s.loadKept / n).toFixed(2)}, time warp ${(s.warpKept / n).toFixed(2)}`;
  const prices = `prices (log10) load ${(s.logLoadPrice / n).toFixed(2)}, time warp ${(s.logWarpPrice / n).toFixed(2)}`;
  console.log(`    ${repairs}; ${kept}; ${prices}`);
  const median = runs[runs.length >> 1] ?? 0;
  console.log(`    current infeasible in ${inRuns} iterations, ${runs.length} runs (median ${median}, longest ${runs.at(-1) ?? 0})`);
  console.log(`    ${split.join("; ")}`);
}
