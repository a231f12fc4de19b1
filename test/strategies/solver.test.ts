import { expect } from "chai";
import fc from "fast-check";
import { solveRequest } from "../../src/problem/solve-request.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import { Budget } from "../../strategies/core/budget.js";
import { Workspace } from "../../strategies/core/workspace.js";
import { STRATEGIES } from "../../strategies/registry.js";
import { selectStrategy } from "../../strategies/select.js";
import { arbitraryRequest } from "./random-problems.js";
import { referenceCost } from "./reference-evaluator.js";

function cvrp(customers: number, vehicles: number, capacity: number, seed: number, asymmetric = false): SolveRequestInput {
  let s = seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = customers + 1;
  const pos = Array.from({ length: n }, () => [Math.round(rand() * 100), Math.round(rand() * 100)]);
  return {
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: pos.map((a, i) =>
      pos.map((b, j) => (i === j ? 0 : Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) + (asymmetric ? rand() * 20 : 0)))),
    ),
    node_positions: [],
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 6))),
    vehicles_capacity: Array(vehicles).fill(capacity),
  };
}

/** Exact optimum of a tiny CVRP with identical vehicles: TSP over subsets, then set partition. */
function bruteForceOptimum(req: SolveRequestInput): number {
  const n = req.node_num;
  const d = req.distance_matrix;
  const cust = Array.from({ length: n - 1 }, (_, i) => i + 1);
  const m = cust.length;
  const full = 1 << m;
  const INF = Number.POSITIVE_INFINITY;
  // tsp[S][j]: shortest path from depot through S ending at cust[j]
  const tsp = Array.from({ length: full }, () => new Array<number>(m).fill(INF));
  for (let j = 0; j < m; j++) tsp[1 << j]![j] = d[0]![cust[j]!]!;
  for (let S = 1; S < full; S++)
    for (let j = 0; j < m; j++) {
      const cur = tsp[S]![j]!;
      if (!(S & (1 << j)) || cur === INF) continue;
      for (let k = 0; k < m; k++)
        if (!(S & (1 << k))) tsp[S | (1 << k)]![k] = Math.min(tsp[S | (1 << k)]![k]!, cur + d[cust[j]!]![cust[k]!]!);
    }
  const route = new Array<number>(full).fill(INF);
  for (let S = 1; S < full; S++) {
    let load = 0;
    for (let j = 0; j < m; j++) if (S & (1 << j)) load += req.node_demands[cust[j]!]!;
    if (load > req.vehicles_capacity[0]!) continue;
    for (let j = 0; j < m; j++) if (S & (1 << j)) route[S] = Math.min(route[S]!, tsp[S]![j]! + d[cust[j]!]![0]!);
  }
  // best[k][S]: S covered by at most k routes
  let best = route.slice();
  best[0] = 0;
  for (let k = 2; k <= req.vehicle_num; k++) {
    const next = best.slice();
    for (let S = 1; S < full; S++) for (let T = S; T > 0; T = (T - 1) & S) next[S] = Math.min(next[S]!, route[T]! + best[S ^ T]!);
    best = next;
  }
  return best[full - 1]!;
}

describe("solver strategies", function () {
  this.timeout(120_000);

  it("finds the brute-force optimum of tiny instances (symmetric and asymmetric) with every search strategy that supports them", () => {
    const tried = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) {
      const req = cvrp(5 + (seed % 3), 3, 10, seed, seed % 2 === 0);
      const total = req.node_demands.reduce((a, b) => a + b, 0);
      req.vehicles_capacity = req.vehicles_capacity.map(() => Math.max(8, Math.ceil(total / 2.5)));
      const optimum = bruteForceOptimum(req);
      expect(optimum, "the instance is feasible").to.be.lessThan(Number.POSITIVE_INFINITY);
      const { problem } = compileRequest(req);
      for (const strategy of STRATEGIES) {
        // A construction makes no claim to optimality; every search and exact strategy must find it.
        if (strategy.kind === "construction" || !strategy.supports(problem).ok) continue;
        tried.add(strategy.name);
        const outcome = solveRequest(req, { requestId: "t", timeLimitSeconds: 5, seed, maxIterations: 3000, strategy: strategy.name });
        expect(outcome.status, `${strategy.name} seed ${seed}`).to.equal("solved");
        if (outcome.status === "solved") expect(outcome.result.total_cost, `${strategy.name} seed ${seed}`).to.be.closeTo(optimum, 1e-6);
      }
    }
    expect([...tried].sort()).to.include.members(["alns", "hgs"]);
  });

  it("returns only solutions that the evaluator and an independent reference agree on, with every feature on", () => {
    let solved = 0;
    fc.assert(
      fc.property(arbitraryRequest(9), fc.constantFrom(...STRATEGIES.map((s) => s.name)), (req, strategy) => {
        const outcome = solveRequest(req, { requestId: "p", timeLimitSeconds: 5, seed: 3, maxIterations: 150, strategy });
        if (outcome.status === "failed") {
          expect(outcome.error).to.match(/^(No feasible|Strategy)/);
          return;
        }
        solved++;
        const r = outcome.result;
        const ref = referenceCost(req, r.routes);
        expect(ref.feasible, JSON.stringify({ req, routes: r.routes })).to.equal(true);
        expect(r.total_cost).to.be.closeTo(ref.cost, 1e-6 * Math.max(1, ref.cost));
        expect(r.total_distance).to.be.closeTo(ref.distance, 1e-6 * Math.max(1, ref.distance));
        expect(r.lateness_minutes).to.be.closeTo(ref.lateMinutes, 1e-6 * Math.max(1, ref.lateMinutes));
        const keys = Object.keys(r.routes);
        expect(r.distances).to.have.length(keys.length);
        expect(Object.keys(r.loads)).to.deep.equal(keys);
        if (req.node_time_windows && req.node_service_time && req.vehicle_speeds) {
          expect(Object.keys(r.time_windows)).to.deep.equal(keys);
          for (const k of keys) expect(r.time_windows[k]).to.have.length(r.routes[k]!.length);
        } else {
          expect(r.time_windows).to.deep.equal({});
        }
      }),
      { numRuns: 120, seed: 42 },
    );
    expect(solved, "most random instances are solvable").to.be.greaterThan(40);
  });

  it("keeps the O(1) insertion delta equal to re-evaluating the route from scratch", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.boolean(), (seed, asym) => {
        const { problem: p } = compileRequest({
          ...cvrp(12, 3, 100, seed, asym),
          objective: "min_total_cost",
          vehicle_fixed_costs: [5, 7, 9],
          vehicle_unit_distance_costs: [1, 1.5, 0.7],
        });
        const ws = new Workspace(p);
        const order = Array.from(p.customers);
        order.forEach((c, i) => ws.insert(c, i % 3, 0));
        for (const c of [1, 4, 7]) ws.remove(c);
        for (const c of [1, 4, 7])
          for (let v = 0; v < 3; v++)
            for (let pos = 0; pos <= ws.routes[v]!.length; pos++) {
              const candidate = ws.routes[v]!.slice();
              candidate.splice(pos, 0, c);
              const expected = evaluateRoute(p, v, candidate).cost - evaluateRoute(p, v, ws.routes[v]!).cost;
              expect(ws.insertionDelta(c, v, pos)).to.be.closeTo(expected, 1e-9);
            }
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it("gives the same routes for the same seed and iteration budget", () => {
    const req = cvrp(40, 6, 30, 5);
    const a = solveRequest(req, { requestId: "d", timeLimitSeconds: 30, seed: 11, maxIterations: 300, strategy: "alns" });
    const b = solveRequest(req, { requestId: "d", timeLimitSeconds: 30, seed: 11, maxIterations: 300, strategy: "alns" });
    expect(a.status).to.equal("solved");
    if (a.status === "solved" && b.status === "solved") expect(a.result.routes).to.deep.equal(b.result.routes);
  });

  for (const strategy of STRATEGIES) {
    it(`${strategy.name} honours its deadline and returns a feasible solution`, () => {
      const req = { ...cvrp(300, 40, 40, 21), node_positions: undefined as never };
      const pos = Array.from({ length: 301 }, (_, i): [number, number] => [i % 17, Math.floor(i / 17)]);
      const withCoords = { ...req, node_positions: pos, distance_matrix: [] };
      const { problem } = compileRequest(withCoords);
      const started = performance.now();
      const solution = strategy.solve(problem, Budget.forSeconds(1, 1));
      const seconds = (performance.now() - started) / 1000;
      expect(seconds).to.be.lessThan(2.5);
      expect(evaluateSolution(problem, solution).feasible).to.equal(true);
    });
  }

  for (const strategy of STRATEGIES) {
    it(`${strategy.name} stops early on a tiny problem instead of using the whole time limit`, () => {
      const positions: [number, number][] = [
        [0, 0],
        [3, 4],
        [6, 1],
        [-2, 5],
        [-4, -3],
        [1, -6],
      ];
      const { problem } = compileRequest({ ...cvrp(5, 2, 10, 4), node_positions: positions, distance_matrix: [] });
      expect(strategy.supports(problem).ok).to.equal(true);
      const started = performance.now();
      const solution = strategy.solve(problem, Budget.forSeconds(30, 1));
      // Far below the 30 s limit even on a loaded machine; the optimum of 5 customers needs no more.
      expect((performance.now() - started) / 1000).to.be.lessThan(10);
      expect(evaluateSolution(problem, solution).feasible).to.equal(true);
    });
  }

  for (const name of ["alns", "hgs"]) {
    it(`${name} tells the budget of every new best feasible solution, ending with the one it returns`, () => {
      const { problem } = compileRequest(cvrp(40, 6, 30, 9));
      const budget = Budget.forSeconds(30, 3, 400);
      const reported: number[] = [];
      let last: ReturnType<typeof evaluateSolution> | null = null;
      budget.onImprovement((best) => {
        const score = evaluateSolution(problem, best);
        expect(score.feasible, "only feasible solutions are reported").to.equal(true);
        reported.push(score.cost);
        last = score;
      });
      const solution = STRATEGIES.find((s) => s.name === name)!.solve(problem, budget);
      expect(reported.length).to.be.greaterThan(0);
      expect(budget.improvementCount).to.equal(reported.length);
      for (let i = 1; i < reported.length; i++) expect(reported[i]).to.be.lessThan(reported[i - 1]!);
      expect(last!.cost).to.be.closeTo(evaluateSolution(problem, solution).cost, 1e-6);
    });
  }

  it("explains infeasible requests in English", () => {
    const tooHeavy = cvrp(4, 2, 10, 1);
    tooHeavy.node_demands[2] = 30;
    const a = solveRequest(tooHeavy, { requestId: "i", timeLimitSeconds: 1 });
    expect(a.status).to.equal("failed");
    if (a.status === "failed") expect(a.diagnostics).to.include("node 2 demand 30 exceeds the largest vehicle capacity 10 by 20");
    const tooMuch = cvrp(6, 1, 10, 2);
    const b = solveRequest(
      { ...tooMuch, node_demands: tooMuch.node_demands.map((d, i) => (i ? 5 : 0)) },
      { requestId: "i", timeLimitSeconds: 1 },
    );
    if (b.status === "failed") expect(b.diagnostics.join(" ")).to.match(/total demand 30 exceeds the total capacity of all vehicles 10/);
    else expect.fail("expected a failure");
    const windows = cvrp(3, 1, 100, 3);
    const late = solveRequest(
      {
        ...windows,
        node_time_windows: [
          [0, 100],
          [0, 1],
          [0, 500],
          [0, 500],
        ],
        node_service_time: [0, 0, 0, 0],
        vehicle_speeds: [0.01],
      },
      { requestId: "i", timeLimitSeconds: 1 },
    );
    if (late.status === "failed") expect(late.diagnostics.join(" ")).to.match(/node 1 cannot be served within its time window/);
    else expect.fail("expected a failure");
    const hours = solveRequest(
      {
        ...windows,
        node_time_windows: [
          [0, 10000],
          [0, 10000],
          [0, 10000],
          [0, 10000],
        ],
        node_service_time: [0, 0, 0, 0],
        vehicle_speeds: [0.01],
        max_working_hours: 1,
      },
      { requestId: "i", timeLimitSeconds: 1 },
    );
    if (hours.status === "failed")
      expect(hours.diagnostics.join(" ")).to.match(/max_working_hours \(1 h\) is shorter than any vehicle's round trip/);
    else expect.fail("expected a failure");
  });

  it("selects by size and refuses a pinned strategy that cannot solve the problem", () => {
    const { problem } = compileRequest(cvrp(10, 2, 50, 1));
    expect(selectStrategy(problem).name).to.equal("hgs");
    // Customer windows narrower than the depot's (Solomon-like), hard: hgs (time warp); soft: hgs's general search.
    const windows = cvrp(10, 2, 50, 1);
    const timedRequest = {
      ...windows,
      node_time_windows: windows.node_demands.map((_, i): [number, number] => (i === 0 ? [0, 1000] : [10 * i, 10 * i + 200])),
      node_service_time: windows.node_demands.map(() => 5),
      vehicle_speeds: [1, 1],
    };
    const timed = compileRequest(timedRequest);
    expect(selectStrategy(timed.problem).name).to.equal("hgs");
    const soft = compileRequest({ ...timedRequest, late_penalty_per_min: 1 });
    expect(selectStrategy(soft.problem).name).to.equal("hgs");
    // A mixed fleet, several depots: hgs too (its general search); above its measured size, the
    // decomposition (large).
    const mixed = compileRequest({ ...cvrp(10, 2, 50, 1), vehicles_capacity: [50, 60] });
    expect(selectStrategy(mixed.problem).name).to.equal("hgs");
    const depots = compileRequest({ ...cvrp(10, 2, 50, 1), start_nodes: [0, 1], end_nodes: [0, 1] });
    expect(selectStrategy(depots.problem).name).to.equal("hgs");
    const largeMixed = compileRequest({ ...cvrp(1200, 2, 5000, 1), vehicles_capacity: [5000, 6000] });
    expect(selectStrategy(largeMixed.problem).name).to.equal("large");
    // Identical-vehicles problems without binding windows above 2,000 customers: the decomposition too (ALNS only by name).
    const grid = Array.from({ length: 2501 }, (_, i): [number, number] => [i % 50, Math.floor(i / 50)]);
    const wide = compileRequest({
      node_num: grid.length,
      vehicle_num: 300,
      distance_matrix: [],
      node_positions: grid,
      start_nodes: Array(300).fill(0),
      end_nodes: Array(300).fill(0),
      node_demands: grid.map((_, i) => (i === 0 ? 0 : 1)),
      vehicles_capacity: Array(300).fill(10),
    });
    expect(selectStrategy(wide.problem).name).to.equal("large");
    const outcome = solveRequest(cvrp(10, 2, 50, 1), { requestId: "s", timeLimitSeconds: 1, strategy: "sweep" });
    expect(outcome.status).to.equal("failed");
    if (outcome.status === "failed") expect(outcome.error).to.match(/needs node_positions/);
  });

  it("uses fewer or cheaper vehicles under min_total_cost when that pays", () => {
    const base = cvrp(8, 4, 100, 4);
    const outcome = solveRequest(
      { ...base, objective: "min_total_cost", vehicle_fixed_costs: [1000, 1000, 1000, 10], vehicle_unit_distance_costs: [1, 1, 1, 1] },
      { requestId: "c", timeLimitSeconds: 2, maxIterations: 2000 },
    );
    expect(outcome.status).to.equal("solved");
    if (outcome.status === "solved") expect(Object.keys(outcome.result.routes)).to.deep.equal(["Vehicle 3"]);
  });
});
