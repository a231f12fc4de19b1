import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate } from "../../strategies/ils/ruin-recreate.js";
import { RouteElimination, ruinNearViolation, type EliminationHooks } from "../../strategies/ils/route-elimination.js";
import { buildFleetModel } from "../../strategies/search/fleet-model.js";
import { GeneralLocalSearch } from "../../strategies/search/general/local-search.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance } from "./fleet-problems.js";

/**
 * Customers on a line east of the depot, windows wide enough for any order, one skill ("cold")
 * that every vehicle has and half the customers need, so the problem has rules (the general
 * search's diversified path); `capacity` decides how many routes are needed.
 */
function lineProblem(customers: number, vehicles: number, capacity: number): CompiledProblem {
  const n = customers + 1;
  const x = Array.from({ length: n }, (_, i) => 10 * i);
  const req = {
    objective: "min_total_distance",
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: x.map((a) => x.map((b) => Math.abs(a - b))),
    start_nodes: new Array(vehicles).fill(0),
    end_nodes: new Array(vehicles).fill(0),
    node_demands: x.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: new Array(vehicles).fill(capacity),
    node_time_windows: x.map((): [number, number] => [0, 10_000]),
    node_service_time: x.map((_, i) => (i === 0 ? 0 : 5)),
    vehicle_speeds: new Array(vehicles).fill(1),
    node_skills: x.map((_, i) => (i > 0 && i % 2 === 0 ? ["cold"] : null)),
    vehicle_skills: new Array(vehicles).fill(["cold"]),
  } as unknown as SolveRequestInput;
  return compileRequest(req).problem;
}

/** Hooks on the evaluator: an outcome is the routes the local search left, judged from scratch. */
function evaluatorHooks(p: CompiledProblem, ls: GeneralLocalSearch, rng: Rng): EliminationHooks<number[][]> {
  return {
    educate: () => {
      ls.run(rng);
      return ls.rs.routes();
    },
    complete: (routes) => {
      const score = evaluateSolution(p, { routes });
      return score.feasible && score.missing.length === 0;
    },
    cost: (routes) => {
      const score = evaluateSolution(p, { routes });
      return score.cost + (score.feasible ? 0 : 1e6) + 1e6 * score.missing.length;
    },
    routes: (routes) => routes,
  };
}

const used = (routes: readonly (readonly number[])[]) => routes.filter((r) => r.length > 0).length;

describe("route elimination of the general search (ils/route-elimination.ts)", function () {
  this.timeout(120_000);

  it("empties the smallest route of the best into the others when they have room, feasible by the evaluator", () => {
    const p = lineProblem(6, 3, 10);
    const rs = new Routes(buildFleetModel(p));
    const ls = new GeneralLocalSearch(rs);
    const rng = new Rng(1);
    const best = [[1, 2], [3, 4, 5], [6]];
    const bestScore = evaluateSolution(p, { routes: best });
    expect(bestScore.feasible).to.equal(true);
    const elimination = new RouteElimination(ls);
    const reduced = elimination.attempt(rng, best, bestScore.cost, evaluatorHooks(p, ls, rng), () => false);
    expect(reduced).to.not.equal(null);
    const score = evaluateSolution(p, { routes: reduced! });
    expect(score.feasible).to.equal(true);
    expect(score.missing).to.deep.equal([]);
    expect(used(reduced!)).to.be.at.most(2);
    // The search goes on with the reduced fleet until it goes back to the best.
    expect(ls.closedFleet).to.equal(true);
    elimination.release();
    expect(ls.closedFleet).to.equal(false);
  });

  it("gives up, and leaves the fleet open, when the other routes cannot carry the victim's customers", () => {
    const p = lineProblem(6, 3, 2);
    const rs = new Routes(buildFleetModel(p));
    const ls = new GeneralLocalSearch(rs);
    const rng = new Rng(2);
    const best = [[1, 2], [3, 4], [5, 6]];
    const elimination = new RouteElimination(ls);
    const hooks = evaluatorHooks(p, ls, rng);
    expect(elimination.attempt(rng, best, evaluateSolution(p, { routes: best }).cost, hooks, () => false)).to.equal(null);
    expect(ls.closedFleet).to.equal(false);
    // Each route of the same best is tried once, then there is no victim left.
    expect(elimination.attempt(rng, best, evaluateSolution(p, { routes: best }).cost, hooks, () => false)).to.equal(null);
    expect(elimination.attempt(rng, best, evaluateSolution(p, { routes: best }).cost, hooks, () => false)).to.equal(null);
    expect(elimination.attempts).to.equal(3);
    expect(elimination.attempt(rng, best, evaluateSolution(p, { routes: best }).cost, hooks, () => false)).to.equal(null);
    expect(elimination.attempts).to.equal(3);
  });

  it("with the fleet closed, ruin, recreate and local search never open a vehicle, lose track of no customer and price as the evaluator", () => {
    fc.assert(
      fc.property(fc.oneof(fleetArb("none", 12), fleetArb("hard", 12)), (o) => {
        const { problem: p } = compileRequest(fleetInstance(o));
        const rs = new Routes(buildFleetModel(p));
        rs.penalties = { load: 3, timeWarp: 2, duration: 2, distance: 1, stops: 1 };
        const ls = new GeneralLocalSearch(rs);
        const rng = new Rng(o.seed);
        const lists: number[][] = Array.from({ length: p.vehicleCount }, () => []);
        for (const c of p.customers) lists[rng.int(p.vehicleCount)]!.push(c);
        rs.loadRoutes(lists);
        ls.run(rng);
        const victim = rs.routes().findIndex((r) => r.length > 0);
        const before = used(rs.routes());
        fc.pre(before >= 2);
        const removed = rs.routes()[victim]!;
        rs.setRoute(victim, removed, 0);
        ls.closedFleet = true;
        recreate(ls, rng, removed);
        ls.run(rng);
        recreate(ls, rng, ruinNearViolation(ls, rng, 4));
        ls.run(rng);
        const routes = rs.routes();
        expect(used(routes)).to.be.at.most(Math.max(1, before - 1));
        // Every customer on one route at most; one on none is unrouted in the model (a ruin that
        // empties the last routes leaves its customers nowhere to go, and the attempt then fails).
        const routed = routes.flat();
        expect(new Set(routed).size).to.equal(routed.length);
        for (const c of p.customers) expect(rs.routeOf[c]! >= 0).to.equal(routed.includes(c));
        if (before >= 3 && removed.length + 4 < p.customers.length) expect(routed.length, "customers placed").to.equal(p.customers.length);
        // The route model's objective is the evaluator's distance cost.
        let objective = 0;
        for (let r = 0; r < p.vehicleCount; r++) objective += rs.objective[r]!;
        expect(objective).to.be.closeTo(evaluateSolution(p, { routes }).cost, 1e-6 * Math.max(1, objective));
      }),
      { numRuns: 80 },
    );
  });
});
