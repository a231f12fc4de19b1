/**
 * Balanced workloads (balance, measure "duration") on generated families: how much the longest
 * working day falls, and what that costs in distance. Per instance, with one seed:
 *  - unbalanced: the request as generated (total distance D0, longest day L0, K vans used);
 *  - balanced, once per factor f: with `balance: { measure: "duration", cost_per_unit: f x D0 / L0 }`,
 *    the one stated rule for the weight on every instance (scale-free: 1% of the longest day is
 *    then worth f% of the distance);
 *  - reference, what a dispatcher means by the shortest achievable day: the least longest day
 *    among plans whose distance is within 3% of D0 (an epsilon constraint). It is found by long
 *    runs that minimise distance with every day capped at T minutes (`vehicle_max_working_hours`),
 *    T bisected between the mean day of the unbalanced plan and L0: a cap whose plan stays within
 *    the distance budget lowers the upper end. Lmin is the least longest day of every plan of the
 *    instance within the budget (an upper bound of the true one).
 * The balanced and reference runs get the K vans the unbalanced plan uses (the same drivers share
 * the work out). The bar: the balanced longest day at most 5% above Lmin and its distance
 * at most 3% above D0.
 * Families: "day" (the default: a dispatcher's day, bench/balance-day-instance.ts: a fixed fleet
 * that the day needs, shifts, a working-hours cap, delivery windows), "gh" (Gehring-Homberger-like
 * VRPTWs of 100 customers, bench/gh-like.ts) and "x" (X-like CVRPs of 100 customers given a
 * working day: windows open all day, 10 minutes of service, travel minutes = distance).
 * References take most of the time and do not depend on the balance term's search, so `--cache F`
 * keeps them in a JSON file between runs. `--balanced-seeds A,B` runs the balanced search once per
 * seed against the same unbalanced plan and reference (those from `--seed`): the objective is flat
 * along the trade between the two limits, and one seed's plan may land on either side of a bar.
 * The objective column is the balanced plan's D + cost_per_unit x L, by which the search ranks plans.
 *
 * `npm run -s bench -- balance [--family day|gh|x] [--time S] [--reference-time S] [--steps N] [--factors F,G]`
 * `[--count K] [--first I] [--seed N] [--balanced-seeds A,B] [--instance-seed N] [--cache FILE]`
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { dispatcherDay } from "./balance-day-instance.js";
import { ghLike } from "./gh-like.js";
import { benchSettings } from "./settings-env.js";
import { generateXLike } from "./x-like-instance.js";

const CUSTOMERS = 100;
/** The distance budget of the reference and of the bar: 3% above the unbalanced plan's. */
const DISTANCE_BUDGET = 1.03;

type Family = "day" | "gh" | "x";

/** Instance `index` of a family, with the time dimension. */
export function balanceInstance(family: Family, index: number, seedBase: number): { name: string; request: SolveRequestInput } {
  if (family === "day") return dispatcherDay(index, seedBase);
  if (family === "gh") return ghLike(index, seedBase, [CUSTOMERS], () => 100);
  const { name, request } = generateXLike(index, seedBase, CUSTOMERS);
  const n = request.node_num;
  const day = 100_000;
  return {
    name,
    request: {
      ...request,
      node_time_windows: Array.from({ length: n }, () => [0, day]),
      node_service_time: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 10)),
      vehicle_speeds: Array<number>(request.vehicle_num).fill(1),
    },
  };
}

interface Plan {
  distance: number;
  longest: number;
  /** The mean working day of the used routes. */
  mean: number;
  routes: number;
  iterations: number;
}

function solve(request: SolveRequestInput, name: string, seconds: number, seed: number): Plan | null {
  const stats = { iterations: 0 };
  const outcome = solveRequest(request, { settings: benchSettings, requestId: name, timeLimitSeconds: seconds, seed, stats });
  if (outcome.status !== "solved") return null;
  const days = Object.values(outcome.result.route_details).map((d) => d.duration_minutes ?? 0);
  const sum = days.reduce((a, b) => a + b, 0);
  return {
    distance: outcome.result.total_distance,
    longest: Math.max(0, ...days),
    mean: days.length ? sum / days.length : 0,
    routes: days.length,
    iterations: stats.iterations,
  };
}

/** The request with its first `count` vehicles only (they are alike in every family). */
function usedFleet(request: SolveRequestInput, count: number): SolveRequestInput {
  const first = <T>(list: T[] | undefined | null) => (list ? list.slice(0, count) : list);
  const out: SolveRequestInput = { ...request, vehicle_num: count };
  for (const key of ["start_nodes", "end_nodes", "vehicles_capacity", "vehicle_speeds", "vehicle_time_windows"] as const)
    if (request[key]) Object.assign(out, { [key]: first(request[key] as unknown[]) });
  return out;
}

/** Every day capped at `minutes` (and at the request's own cap). */
function capped(request: SolveRequestInput, minutes: number): SolveRequestInput {
  const own = typeof request.max_working_hours === "number" ? request.max_working_hours : Number.POSITIVE_INFINITY;
  const hours = Math.min(minutes / 60, own);
  return { ...request, vehicle_max_working_hours: Array<number>(request.vehicle_num).fill(hours) };
}

/** The longest days of the within-budget plans the epsilon-constraint bisection found (see the header). */
function referenceDays(fleet: SolveRequestInput, plain: Plan, name: string, seconds: number, steps: number, seed: number): number[] {
  const days: number[] = [];
  let lo = plain.mean;
  let hi = plain.longest;
  for (let step = 0; step < steps && hi - lo > 0.5; step++) {
    const cap = (lo + hi) / 2;
    const plan = solve(capped(fleet, cap), `${name}-cap${cap.toFixed(0)}`, seconds, seed);
    if (plan && plan.distance <= DISTANCE_BUDGET * plain.distance + 1e-9) {
      days.push(plan.longest);
      hi = Math.min(cap, plan.longest);
    } else lo = cap;
  }
  return days;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

if (import.meta.url === `file://${process.argv[1]}` || process.argv[2] === "balance") {
  const { values } = parseArgs({
    args: process.argv.slice(process.argv[2] === "balance" ? 3 : 2),
    options: {
      family: { type: "string", default: "day" },
      time: { type: "string", default: "10" },
      "reference-time": { type: "string", default: "20" },
      steps: { type: "string", default: "4" },
      factors: { type: "string", default: "1" },
      count: { type: "string", default: "6" },
      first: { type: "string", default: "0" },
      seed: { type: "string", default: "1" },
      "balanced-seeds": { type: "string" },
      "instance-seed": { type: "string", default: "2026" },
      cache: { type: "string" },
    },
  });
  const family: Family = values.family === "x" ? "x" : values.family === "gh" ? "gh" : "day";
  const [time, referenceTime, steps, seed, first] = [values.time, values["reference-time"], values.steps, values.seed, values.first].map(
    Number,
  ) as [number, number, number, number, number];
  const instanceSeed = Number(values["instance-seed"]);
  const factors = values.factors.split(",").map(Number);
  const balancedSeeds = (values["balanced-seeds"] ?? String(seed)).split(",").map(Number);
  // References and unbalanced plans by instance, run settings and code-independent inputs.
  const cache: Record<string, { plain: Plan; days: number[] }> =
    values.cache && existsSync(values.cache)
      ? (JSON.parse(readFileSync(values.cache, "utf8")) as Record<string, { plain: Plan; days: number[] }>)
      : {};
  console.log(
    `balance: family ${family}, instances ${first}..${first + Number(values.count) - 1} (instance seed ${instanceSeed}), seed ${seed}, ` +
      `${time} s, reference ${steps} x ${referenceTime} s, cost_per_unit f x D0 / L0, distance budget ${DISTANCE_BUDGET}, ` +
      `balanced seeds ${balancedSeeds.join(",")}`,
  );
  console.log("| instance | D0 | L0 | vans | Lmin | f | seed | L | L / Lmin | D / D0 | objective | iterations | both bars |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  const over = new Map<number, number[]>(factors.map((f) => [f, []]));
  const rise = new Map<number, number[]>(factors.map((f) => [f, []]));
  const met = new Map<number, number>(factors.map((f) => [f, 0]));
  let runs = 0;
  for (let i = first; i < first + Number(values.count); i++) {
    const { name, request } = balanceInstance(family, i, instanceSeed);
    const key = `${family}/${instanceSeed}/${i}/seed${seed}/${time}s/ref${steps}x${referenceTime}s`;
    let entry = cache[key];
    if (!entry) {
      const plain = solve(request, name, time, seed);
      if (!plain) {
        console.log(`| ${name} | unsolved | | | | | | | | | | | |`);
        continue;
      }
      entry = { plain, days: referenceDays(usedFleet(request, plain.routes), plain, name, referenceTime, steps, seed) };
      cache[key] = entry;
      if (values.cache) writeFileSync(values.cache, JSON.stringify(cache, null, 1));
    }
    const { plain, days } = entry;
    const fleet = usedFleet(request, plain.routes);
    const unit = plain.distance / plain.longest;
    const runsOf = factors.flatMap((f) => balancedSeeds.map((s) => ({ f, s })));
    const balanced = runsOf.map(({ f, s }) =>
      solve({ ...fleet, balance: { measure: "duration" as const, cost_per_unit: f * unit } }, name, time, s),
    );
    const withinBudget = balanced.filter((b) => b !== null && b.distance <= DISTANCE_BUDGET * plain.distance + 1e-9);
    const least = Math.min(plain.longest, ...days, ...withinBudget.map((b) => b!.longest));
    runsOf.forEach(({ f, s }, k) => {
      const plan = balanced[k];
      const day = `| ${name} | ${plain.distance.toFixed(1)} | ${plain.longest.toFixed(1)} | ${plain.routes} |`;
      if (!plan) {
        console.log(`${day} | ${f} | ${s} | unsolved | | | | | no |`);
        return;
      }
      runs++;
      const ratioL = plan.longest / least;
      const ratioD = plan.distance / plain.distance;
      over.get(f)!.push(ratioL);
      rise.get(f)!.push(ratioD);
      const both = ratioL <= 1.05 + 1e-9 && ratioD <= DISTANCE_BUDGET + 1e-9;
      if (both) met.set(f, met.get(f)! + 1);
      console.log(
        `${day} ${least.toFixed(1)} | ${f} | ${s} | ${plan.longest.toFixed(1)} | ${ratioL.toFixed(3)} | ${ratioD.toFixed(3)} | ` +
          `${(plan.distance + f * unit * plan.longest).toFixed(2)} | ${plan.iterations} | ${both ? "yes" : "no"} |`,
      );
    });
  }
  for (const f of factors)
    console.log(
      `f ${f}: median L / Lmin ${median(over.get(f)!).toFixed(3)} (max ${Math.max(...over.get(f)!).toFixed(3)}), ` +
        `median D / D0 ${median(rise.get(f)!).toFixed(3)} (max ${Math.max(...rise.get(f)!).toFixed(3)}), ` +
        `both bars on ${met.get(f)} of ${over.get(f)!.length}`,
    );
  if (runs === 0) process.exitCode = 1;
}
