/**
 * Full-fleet skills instances: each bench/sd-like.ts instance with its fleet cut to the vehicles a
 * seed-1 solve of a fixed number of iterations used (the generator gives every group spare vehicles,
 * so its instances never test a fleet the plan needs whole). `--fewer 0,1` writes that cut and one that
 * also drops the vehicle whose route in that plan serves the fewest customers (a plan may or may not exist). The plan
 * comes from the settings in SOLVER_* (bench/settings-env.ts) and a fixed iteration count, so the
 * same code and arguments write the same fleets. Writes one request file per instance to `--out`:
 * `node --import tsx bench/sd-like-cut.ts --instance-seed N --out DIR [--count 6] [--fewer 0,1] [--iterations I]`
 * (iterations default: 5,000 up to 200 customers, 10,000 above, about what the protocol's 10 s / 30 s give).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Budget } from "../strategies/core/budget.js";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { selectStrategy } from "../strategies/select.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { sdLike } from "./sd-like.js";
import { benchSettings } from "./settings-env.js";

/**
 * The vehicles to keep: those with a route in `routes` (indexed by vehicle), less the `fewer`
 * ones serving the fewest customers (ties: the later vehicle goes first). Ascending indices.
 */
export function keptVehicles(routes: readonly (readonly number[])[], fewer: number): number[] {
  const used = routes.flatMap((r, v) => (r.length > 0 ? [v] : []));
  const dropped = new Set([...used].sort((a, b) => routes[a]!.length - routes[b]!.length || b - a).slice(0, Math.max(0, fewer)));
  return used.filter((v) => !dropped.has(v));
}

/** The request with only the vehicles `keep` (indices into its fleet), every per-vehicle field cut alike. */
export function cutFleet(request: SolveRequestInput, keep: readonly number[], name: string): SolveRequestInput {
  const count = request.vehicle_num;
  const out: Record<string, unknown> = { ...request, name, vehicle_num: keep.length };
  for (const [key, value] of Object.entries(request)) {
    const perVehicle = key.startsWith("vehicle") || key === "start_nodes" || key === "end_nodes";
    if (perVehicle && Array.isArray(value) && value.length === count) out[key] = keep.map((v) => value[v]);
  }
  return out as unknown as SolveRequestInput;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      "instance-seed": { type: "string", default: "2126" },
      count: { type: "string", default: "6" },
      fewer: { type: "string", default: "0" },
      iterations: { type: "string" },
      out: { type: "string" },
    },
  });
  if (!values.out) throw new Error("--out DIR is required");
  mkdirSync(values.out, { recursive: true });
  const fewerList = values.fewer.split(",").map(Number);
  const seedBase = Number(values["instance-seed"]);
  for (let i = 0; i < Number(values.count); i++) {
    const { name, request } = sdLike(i, seedBase);
    const { problem } = compileRequest(request);
    const customers = request.node_num - 1;
    const iterations = values.iterations ? Number(values.iterations) : customers <= 200 ? 5000 : 10_000;
    // A deadline far away: the iteration cap alone ends the solve, so the plan does not depend on the machine.
    const budget = Budget.forSeconds(3600, 1, iterations, undefined, benchSettings);
    const solution = selectStrategy(problem).solve(problem, budget);
    const score = evaluateSolution(problem, solution);
    if (!score.feasible) throw new Error(`${name}: the plan to cut by is infeasible`);
    for (const fewer of fewerList) {
      const keep = keptVehicles(solution.routes, fewer);
      const cutName = `${name}-${seedBase}-cut${fewer > 0 ? `-${fewer}` : ""}`;
      writeFileSync(join(values.out, `${cutName}.json`), JSON.stringify(cutFleet(request, keep, cutName)));
      console.log(`${cutName}: ${request.vehicle_num} -> ${keep.length} vehicles (plan cost ${score.cost.toFixed(2)})`);
    }
  }
}
