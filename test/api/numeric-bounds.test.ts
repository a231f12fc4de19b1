import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";

const example = JSON.parse(readFileSync(join(REPO_ROOT, "examples/small-cvrp.json"), "utf8")) as SolveRequestInput;
const windowed = (extra: Partial<SolveRequestInput> = {}): SolveRequestInput => ({
  ...structuredClone(example),
  node_time_windows: [
    [0, 1000],
    [0, 1000],
    [0, 1000],
    [0, 1000],
    [0, 1000],
  ],
  node_service_time: [0, 0, 0, 0, 0],
  vehicle_speeds: [1, 1],
  ...extra,
});

/** Where one number of the request is set: [field path, setter]. */
const CASES: [string, (r: SolveRequestInput, x: number) => void, number][] = [
  ["distance_matrix.0.1", (r, x) => (r.distance_matrix[0]![1] = x), 1e12],
  ["node_positions.2.0", (r, x) => (r.node_positions = r.distance_matrix.map((_, i) => (i === 2 ? [x, 0] : [i, 0]))), 1e12],
  ["node_demands.1", (r, x) => (r.node_demands[1] = x), 1e12],
  ["vehicles_capacity.0", (r, x) => (r.vehicles_capacity[0] = x), 1e12],
  ["vehicle_fixed_costs.1", (r, x) => ((r.objective = "min_total_cost"), (r.vehicle_fixed_costs = [0, x])), 1e12],
  ["vehicle_unit_distance_costs.0", (r, x) => ((r.objective = "min_total_cost"), (r.vehicle_unit_distance_costs = [x, 1])), 1e12],
  [
    "node_time_windows.3.1",
    (r, x) =>
      Object.assign(
        r,
        windowed({
          node_time_windows: [
            [0, 1000],
            [0, 1000],
            [0, 1000],
            [0, x],
            [0, 1000],
          ],
        }),
      ),
    1e12,
  ],
  ["node_service_time.2", (r, x) => Object.assign(r, windowed({ node_service_time: [0, 0, x, 0, 0] })), 1e12],
  ["vehicle_speeds.1", (r, x) => Object.assign(r, windowed({ vehicle_speeds: [1, x] })), 1e12],
  ["max_working_hours", (r, x) => Object.assign(r, windowed({ max_working_hours: x })), 1e10],
  ["late_penalty_per_min", (r, x) => Object.assign(r, windowed({ late_penalty_per_min: x })), 1e12],
];

describe("numeric bounds of a solve request (the OpenAPI document's minimum / maximum)", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });

  for (const [path, set, bound] of CASES) {
    it(
      `answers ${path} above ${bound} (also 1e308, and 1e400, which JSON reads as ` +
        `Infinity) with a 422 naming the field (and the bound)`,
      () => {
        for (const x of [bound * 10, 1e308, Number.POSITIVE_INFINITY]) {
          const body = structuredClone(example);
          set(body, x);
          // Parsed from text, as the API does: JSON has no Infinity, only a number too large for a double.
          const outcome = validateSolveRequest(
            api,
            JSON.parse(JSON.stringify(body, (_, v: unknown) => (v === Number.POSITIVE_INFINITY ? "INF" : v)).replace(/"INF"/g, "1e400")),
            () => null,
          );
          expect(outcome.ok, `${path} = ${x}`).to.equal(false);
          if (outcome.ok) continue;
          const issue = outcome.issues.find((i) => i.loc.slice(1).join(".") === path);
          expect(issue, `${path} = ${x}: ${JSON.stringify(outcome.issues)}`).to.not.equal(undefined);
          // A finite number names the bound; Infinity is not a number at all and gets a message of its own.
          if (Number.isFinite(x)) expect(issue!.msg).to.equal(`must be <= ${bound}`);
        }
        const atBound = structuredClone(example);
        set(atBound, bound);
        expect(validateSolveRequest(api, atBound, () => null).ok, `${path} = ${bound}`).to.equal(true);
      },
    );
  }

  it("answers a speed below 1e-6 with a 422 naming the field and the bound", () => {
    const outcome = validateSolveRequest(api, windowed({ vehicle_speeds: [1, 1e-7] }), () => null);
    expect(outcome.ok).to.equal(false);
    if (!outcome.ok)
      expect(outcome.issues.map((i) => [i.loc.join("."), i.msg])).to.deep.include(["body.vehicle_speeds.1", "must be >= 0.000001"]);
  });

  it("solves a request with every distance and demand near its bound to the same routes as unscaled", () => {
    const big = structuredClone(example);
    big.distance_matrix = big.distance_matrix.map((row) => row.map((d) => d * 5e10)); // largest entry 20 -> 1e12
    big.node_demands = big.node_demands.map((d) => d * 1e11);
    big.vehicles_capacity = big.vehicles_capacity.map((c) => c * 1e11);
    const outcome = solveRequest(big, { requestId: "bounds", timeLimitSeconds: 2, maxIterations: 2000 });
    expect(outcome.status).to.equal("solved");
    if (outcome.status === "solved") expect(outcome.result.total_cost / 5e10).to.be.closeTo(70, 1e-6);
  });

  it("answers a time dimension at its extremes (slowest speed, widest windows) with finite numbers, never an exception", () => {
    const extreme = windowed({
      distance_matrix: example.distance_matrix.map((row) => row.map((d) => d * 5e10)),
      node_time_windows: example.distance_matrix.map(() => [0, 1e12] as [number, number]),
      node_service_time: [0, 1e12, 1e12, 1e12, 1e12],
      vehicle_speeds: [1e-6, 1e12],
      late_penalty_per_min: 1e12,
    });
    const outcome = solveRequest(extreme, { requestId: "extreme", timeLimitSeconds: 2, maxIterations: 500 });
    expect(outcome.status).to.equal("solved");
    if (outcome.status !== "solved") return;
    const numbers: number[] = [];
    JSON.stringify(outcome.result, (_, v: unknown) => (typeof v === "number" && numbers.push(v), v));
    expect(numbers.every(Number.isFinite)).to.equal(true);
    expect(outcome.result.total_cost).to.be.greaterThan(0);
  });
});
