import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import { formatResult } from "../../src/problem/format-result.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute, evaluateSolution, type RouteSchedule } from "../../strategies/core/evaluator.js";
import type { Solution } from "../../strategies/core/problem.js";
import { normaliseScale } from "../../strategies/core/normalise.js";
import { checkDistanceResult } from "../../checker/check-result.js";

/** A line: depot 0 at x = 0, customers 1..4 at x = 10, 20, 30, 40; two vehicles of capacity 2 reloading at 0. */
function line(extra: ConstraintFields & Partial<SolveRequestInput> = {}): SolveRequestInput {
  const xs = [0, 10, 20, 30, 40];
  return {
    objective: "min_total_distance",
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: xs.map((a) => xs.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1, 1],
    vehicles_capacity: [2, 2],
    node_time_windows: [
      [0, 500],
      [0, 500],
      [0, 500],
      [0, 500],
      [0, 500],
    ],
    node_service_time: [0, 5, 5, 5, 5],
    vehicle_speeds: [1, 1],
    vehicle_reload_nodes: [[0], [0]],
    ...extra,
  } as SolveRequestInput;
}

const problem = (extra: ConstraintFields & Partial<SolveRequestInput> = {}) => compileRequest(line(extra)).problem;
const schedule = (): RouteSchedule => ({ nodes: [], arrive: [], leave: [], loads: [] });

function result(req: SolveRequestInput, s: Solution) {
  const { problem: p, baseStartSeconds } = compileRequest(req);
  const score = evaluateSolution(p, s);
  const meta = {
    requestId: "r",
    solveSeconds: 0,
    strategy: "test",
    warnings: [],
    baseStartSeconds,
    seed: 1,
    iterations: 0,
    solverVersion: "t",
  };
  return formatResult(p, s, score, meta);
}

describe("the evaluator with several trips and release times (evaluate-trips.ts)", () => {
  it("holds capacity per trip: a reload stop empties the vehicle, the next trip starts from 0", () => {
    const p = problem();
    const out = schedule();
    const score = evaluateRoute(p, 0, [1, 2, 0, 3, 4], 5, out);
    expect(score.feasible).to.equal(true);
    expect(score.capacityExcess).to.equal(0);
    expect(score.load).to.equal(4);
    expect(score.reloads).to.equal(1);
    expect(score.distance).to.equal(40 + 80);
    expect(out.nodes).to.deep.equal([0, 1, 2, 0, 3, 4, 0]);
    expect(out.loads).to.deep.equal([0, 1, 2, 0, 1, 2, 2]);
    // Without the reload stop the same customers overload the one trip by 2.
    const single = evaluateRoute(p, 0, [1, 2, 3, 4]);
    expect(single.capacityExcess).to.equal(2);
    expect(single.feasible).to.equal(false);
  });

  it("sums the excess over trips and counts reloads against the vehicle's limit", () => {
    const p = problem({ vehicle_max_reloads: [0, null] });
    const score = evaluateRoute(p, 0, [1, 2, 3, 0, 4], 5);
    expect(score.capacityExcess).to.equal(1);
    expect(score.reloadsExcess).to.equal(1);
    expect(evaluateRoute(p, 1, [1, 2, 0, 3, 4], 5).feasible).to.equal(true);
    expect(evaluateRoute(p, 0, [1, 2, 0, 3, 4], 5).feasible).to.equal(false);
  });

  it("refuses a depot inside a route that is not one of the vehicle's reload nodes", () => {
    const p = problem({ vehicle_reload_nodes: [[0], null] });
    expect(evaluateSolution(p, { routes: [[1, 2, 0, 3, 4], []] }).feasible).to.equal(true);
    expect(evaluateSolution(p, { routes: [[], [1, 2, 0, 3, 4]] }).feasible).to.equal(false);
  });

  it("lets a trip leave its depot only once its customers' goods are released", () => {
    // Customer 3 is released at 200: the reload stop is left at 200, and the start is left as late
    // as avoids waiting there (decisions.md: a driver idling before work is not working).
    const p = problem({ node_release_times: [0, 0, 50, 200, 0], vehicles_capacity: [3, 3] });
    const out = schedule();
    const score = evaluateRoute(p, 0, [1, 0, 3, 4, 2], 5, out);
    expect(score.feasible).to.equal(true);
    expect(out.leave[0]).to.equal(175);
    expect(out.arrive[2]).to.equal(200);
    expect(out.leave[2]).to.equal(200);
    // The last trip holds customer 2 (released at 50) too: it still waits for 3's 200.
    expect(out.arrive[3]).to.equal(230);
    expect(score.durationMin).to.equal(out.arrive[6]! - 175);
    // One trip for all: the vehicle waits at the start node for the latest release.
    const single = schedule();
    evaluateRoute(p, 1, [1, 2, 3, 4], 4, single);
    expect(single.leave[0]).to.equal(200);
  });

  it("makes a release after the reload stop's window closes late, infeasible under hard windows", () => {
    const windows = [
      [0, 150],
      [0, 500],
      [0, 500],
      [0, 500],
      [0, 500],
    ];
    const p = problem({ node_release_times: [0, 0, 0, 200, 0], node_time_windows: windows });
    const score = evaluateRoute(p, 0, [1, 0, 3], 3);
    expect(score.lateMinutes).to.be.greaterThan(0);
    expect(score.feasible).to.equal(false);
  });

  it("keeps feasibility when the search's scale changes the minutes: release times scale with the windows", () => {
    const hours = [
      [0, 5e6],
      [0, 5e6],
      [0, 5e6],
      [0, 5e6],
      [0, 5e6],
    ];
    const p = problem({ node_time_windows: hours, node_release_times: [0, 0, 0, 4e6, 0] });
    const scaled = normaliseScale(p);
    const f = scaled.time!.twEndMin[0]! / p.time!.twEndMin[0]!;
    expect(f).to.be.lessThan(1);
    expect(scaled.trips!.release![3]).to.equal(4e6 * f);
    const route = [1, 2, 0, 3, 4];
    expect(evaluateRoute(scaled, 0, route, 5).feasible).to.equal(evaluateRoute(p, 0, route, 5).feasible);
  });

  it("formats reload stops into routes, loads back at 0 and per-trip details, as the test checker reads them", () => {
    const req = line({ node_release_times: [0, 0, 0, 100, 0], vehicle_max_reloads: [1, 2] });
    const res = result(req, { routes: [[1, 2, 0, 3, 4], []] });
    expect(res.routes["Vehicle 0"]).to.deep.equal([0, 1, 2, 0, 3, 4, 0]);
    expect(res.loads["Vehicle 0"]).to.deep.equal([0, 1, 2, 0, 1, 2, 2]);
    // Leaving the start at 09:50 reaches the reload stop as the second trip's goods are released.
    expect(res.time_windows["Vehicle 0"]![0]).to.deep.equal(["09:50:00", "09:50:00"]);
    expect(res.time_windows["Vehicle 0"]![3]).to.deep.equal(["10:40:00", "10:40:00"]);
    const detail = res.route_details["Vehicle 0"]!;
    expect(detail.reloads).to.equal(1);
    expect(detail.max_reloads).to.equal(1);
    expect(detail.trips!.map((t) => [t.from_node, t.stops, t.load, t.release_minutes])).to.deep.equal([
      [0, 2, 2, 0],
      [0, 2, 2, 100],
    ]);
    expect(detail.waiting_minutes).to.equal(0);
    expect(detail.trips![1]!.departure_minutes).to.equal(100);
    checkDistanceResult(req as never, res as never);
  });
});

/** The shared independent checker, when this checkout sits beside the shared folder (the suite passes without it). */
const shared = fileURLToPath(new URL("../../../shared/", import.meta.url));
const checker = `${shared}peers/check-result.mjs`;

describe("the evaluator against the shared independent checker on a multi-trip benchmark", function () {
  before(function () {
    if (!existsSync(checker) || !existsSync(`${shared}benchmarks/raw/MTVRPTWR/C201R0.25.sol`)) {
      console.log(`      (skipped: no shared checker and MTVRPTWR solution under ${shared})`);
      this.skip();
    }
  });

  it("agrees on the best known solution (feasible, same cost) and on a broken one", async () => {
    const { checkResult } = (await import(pathToFileURL(checker).href)) as {
      checkResult: (req: unknown, res: unknown) => { ok: boolean; total_cost_recomputed: number; violations: string[] };
    };
    const req = JSON.parse(readFileSync(`${shared}benchmarks/requests/MTVRPTWR/C201R0.25.json`, "utf8")) as SolveRequestInput;
    const sol = readFileSync(`${shared}benchmarks/raw/MTVRPTWR/C201R0.25.sol`, "utf8");
    const routes = sol
      .split("\n")
      .filter((l) => l.startsWith("Route"))
      .map((l) => l.split(":")[1]!.trim().split(/\s+/).map(Number));
    while (routes.length < req.vehicle_num) routes.push([]);
    const { problem: p } = compileRequest(req);
    const score = evaluateSolution(p, { routes });
    expect(score.feasible).to.equal(true);
    expect(score.cost).to.be.closeTo(1500.6, 1e-6);
    const verdict = checkResult(req, result(req, { routes }));
    expect(verdict.violations).to.deep.equal([]);
    expect(verdict.total_cost_recomputed).to.be.closeTo(score.cost, 1e-6);
    // Route 4 without its reload stops: trips merge, capacity and release times break for both.
    const broken = routes.map((r, v) => (v === 3 ? r.filter((c) => c !== 0) : r));
    expect(evaluateSolution(p, { routes: broken }).feasible).to.equal(false);
    expect(checkResult(req, result(req, { routes: broken })).ok).to.equal(false);
  });
});
