/**
 * Balanced workloads (balance, measure "duration") on generated families: how much the longest
 * working day falls, and what that costs in distance. Per instance, three runs of one seed:
 *  - unbalanced: the request as generated (total distance D0, longest day L0);
 *  - balanced, once per factor: with `balance: { measure: "duration", cost_per_unit: factor x D0 / L0 }`,
 *    so that the term starts at `factor` times the distance (scale-free: 1% of the longest day is
 *    then worth `factor`% of the distance);
 *  - reference: cost_per_unit 100 x D0 / L0 and a longer limit, to find the shortest longest day
 *    it can (Lmin is the least longest day of all runs, an upper bound of the true one).
 * With `--fleet used` (the default) the balanced and reference runs get as many vehicles as the
 * unbalanced plan uses (the same drivers share the work out: the unbalanced plan stays feasible);
 * with `--fleet free` the generated fleet, where a shorter longest day mostly means more vans.
 * The bar: the balanced longest day at most 5% above Lmin, its distance at most 3% above D0.
 * The reference's own distance (Dref / D0) says what the shortest day costs.
 * Families: "gh" (Gehring-Homberger-like VRPTWs of 100 customers on a 100 x 100 square, bench/gh-like.ts,
 * every class and type in turn) and "x" (X-like CVRPs of 100 customers, bench/x-like-instance.ts,
 * given a working day: windows open all day, 10 minutes of service, travel minutes = distance).
 *
 * `npm run -s bench -- balance [--family gh|x] [--time S] [--reference-time S] [--factors F,G] [--fleet used|free]`
 * `[--count K] [--seed N] [--instance-seed N]`
 */
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { ghLike } from "./gh-like.js";
import { benchSettings } from "./settings-env.js";
import { generateXLike } from "./x-like-instance.js";

const CUSTOMERS = 100;

/** Instance `index` of a family, with the time dimension. */
export function balanceInstance(family: "gh" | "x", index: number, seedBase: number): { name: string; request: SolveRequestInput } {
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
  routes: number;
}

function solve(request: SolveRequestInput, name: string, seconds: number, seed: number): Plan | null {
  const outcome = solveRequest(request, { settings: benchSettings, requestId: name, timeLimitSeconds: seconds, seed });
  if (outcome.status !== "solved") return null;
  const days = Object.values(outcome.result.route_details).map((d) => d.duration_minutes ?? 0);
  return { distance: outcome.result.total_distance, longest: Math.max(0, ...days), routes: days.length };
}

/** The request with its first `count` vehicles only (they are alike in both families). */
function usedFleet(request: SolveRequestInput, count: number): SolveRequestInput {
  const first = <T>(list: T[] | undefined | null) => (list ? list.slice(0, count) : list);
  return {
    ...request,
    vehicle_num: count,
    start_nodes: first(request.start_nodes)!,
    end_nodes: first(request.end_nodes)!,
    vehicles_capacity: first(request.vehicles_capacity)!,
    ...(request.vehicle_speeds ? { vehicle_speeds: first(request.vehicle_speeds)! } : {}),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

if (import.meta.url === `file://${process.argv[1]}` || process.argv[2] === "balance") {
  const { values } = parseArgs({
    args: process.argv.slice(process.argv[2] === "balance" ? 3 : 2),
    options: {
      family: { type: "string", default: "gh" },
      time: { type: "string", default: "10" },
      "reference-time": { type: "string", default: "40" },
      factors: { type: "string", default: "1" },
      fleet: { type: "string", default: "used" },
      count: { type: "string", default: "6" },
      seed: { type: "string", default: "1" },
      "instance-seed": { type: "string", default: "2026" },
    },
  });
  const family = values.family === "x" ? "x" : "gh";
  const [time, referenceTime, seed] = [values.time, values["reference-time"], values.seed].map(Number) as [number, number, number];
  const factors = values.factors.split(",").map(Number);
  console.log(
    `balance: family ${family}, ${values.count} instances (instance seed ${values["instance-seed"]}), seed ${seed}, ` +
      `${time} s (reference ${referenceTime} s), cost_per_unit factor x D0 / L0, fleet ${values.fleet}`,
  );
  console.log("| instance | D0 | L0 | routes | Lmin | Dref / D0 | factor | L | L / Lmin | D / D0 | routes | both bars |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  const over = new Map<number, number[]>(factors.map((f) => [f, []]));
  const rise = new Map<number, number[]>(factors.map((f) => [f, []]));
  for (let i = 0; i < Number(values.count); i++) {
    const { name, request } = balanceInstance(family, i, Number(values["instance-seed"]));
    const plain = solve(request, name, time, seed);
    if (!plain) {
      console.log(`| ${name} | unsolved | | | | | | | | |`);
      continue;
    }
    const unit = plain.distance / plain.longest;
    const fleet = values.fleet === "free" ? request : usedFleet(request, plain.routes);
    const withBalance = (costPerUnit: number) => ({ ...fleet, balance: { measure: "duration" as const, cost_per_unit: costPerUnit } });
    const reference = solve(withBalance(100 * unit), name, referenceTime, seed);
    const balanced = factors.map((factor) => solve(withBalance(factor * unit), name, time, seed));
    if (!reference || balanced.some((b) => b === null)) {
      console.log(`| ${name} | ${plain.distance.toFixed(1)} | ${plain.longest.toFixed(1)} | ${plain.routes} | unsolved | | | | | | | |`);
      continue;
    }
    const least = Math.min(plain.longest, reference.longest, ...balanced.map((b) => b!.longest));
    factors.forEach((factor, k) => {
      const plan = balanced[k]!;
      const ratioL = plan.longest / least;
      const ratioD = plan.distance / plain.distance;
      over.get(factor)!.push(ratioL);
      rise.get(factor)!.push(ratioD);
      const both = ratioL <= 1.05 + 1e-9 && ratioD <= 1.03 + 1e-9 ? "yes" : "no";
      console.log(
        `| ${name} | ${plain.distance.toFixed(1)} | ${plain.longest.toFixed(1)} | ${plain.routes} | ${least.toFixed(1)} | ` +
          `${(reference.distance / plain.distance).toFixed(3)} | ${factor} | ${plan.longest.toFixed(1)} | ${ratioL.toFixed(3)} | ` +
          `${ratioD.toFixed(3)} | ${plan.routes} | ${both} |`,
      );
    });
  }
  for (const factor of factors)
    console.log(
      `factor ${factor}: median L / Lmin ${median(over.get(factor)!).toFixed(3)}, median D / D0 ${median(rise.get(factor)!).toFixed(3)}`,
    );
}
