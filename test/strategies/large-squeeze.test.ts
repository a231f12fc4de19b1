import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateRoute, evaluateSolution } from "../../strategies/core/evaluator.js";
import { nearestNeighbours } from "../../strategies/core/neighbours.js";
import { Rng } from "../../strategies/core/rng.js";
import { MatrixPool } from "../../strategies/decomposition/subproblem.js";
import { hgs } from "../../strategies/hgs/index.js";
import { FleetSqueeze, fleetFloor, insertCheapest } from "../../strategies/large/squeeze.js";

/** A capacity-only request by coordinates with `vehicles` identical vehicles of `capacity`. */
function request(customers: number, vehicles: number, capacity: number, seed: number): SolveRequestInput {
  const rng = new Rng(seed);
  const pos = Array.from({ length: customers + 1 }, (_, i): [number, number] => (i === 0 ? [0, 500] : [rng.int(1000), rng.int(1000)]));
  return {
    node_num: customers + 1,
    vehicle_num: vehicles,
    distance_matrix: [],
    node_positions: pos,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1 + rng.int(3))),
    vehicles_capacity: Array(vehicles).fill(capacity),
  };
}

describe("large: route elimination (fleet squeeze)", function () {
  this.timeout(120_000);

  it("fleetFloor is the total demand over the capacity, and null for mixed fleets", () => {
    const p = compileRequest(request(30, 10, 7, 1)).problem;
    const demand = Array.from(p.customers).reduce((a, c) => a + p.demand[c]!, 0);
    expect(fleetFloor(p)).to.equal(Math.ceil(demand / 7));
    const mixed = request(30, 10, 7, 1);
    mixed.vehicles_capacity = mixed.vehicles_capacity!.map((q, v) => (v === 0 ? q + 1 : q));
    expect(fleetFloor(compileRequest(mixed).problem)).to.equal(null);
  });

  it("insertCheapest serves every customer once, at a position whose price the evaluator confirms is the cheapest with room", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 3, max: 25 }), (seed, customers) => {
        const p = compileRequest(request(customers, 4, 12, seed)).problem;
        const rng = new Rng(seed);
        const routes: number[][] = [[], [], [], []];
        const order = rng.shuffle(Array.from(p.customers));
        const moved = order.slice(0, 1 + rng.int(order.length - 1));
        for (const c of order.slice(moved.length)) routes[rng.int(3)]!.push(c);
        const vehicles = [0, 1, 2];
        const out = insertCheapest(p, vehicles, routes.slice(0, 3), moved.slice(0, 1));
        expect(out.flat().sort((a, b) => a - b)).to.deep.equal([...routes.slice(0, 3).flat(), moved[0]!].sort((a, b) => a - b));
        // Every alternative position of the customer, re-priced by the evaluator, costs no less
        // (among routes with room for it, when one has room).
        const c = moved[0]!;
        const cost = (rs: number[][]) => rs.reduce((a, r, k) => a + evaluateRoute(p, vehicles[k]!, r).cost, 0);
        const room = (r: number[], k: number) => r.reduce((a, x) => a + p.demand[x]!, 0) + p.demand[c]! <= p.capacity[vehicles[k]!]!;
        const anyRoom = routes.slice(0, 3).some(room);
        const chosen = cost(out);
        routes.slice(0, 3).forEach((r, k) => {
          if (anyRoom && !room(r, k)) return;
          for (let at = 0; at <= r.length; at++) {
            const alt = routes.slice(0, 3).map((x) => x.slice());
            alt[k]!.splice(at, 0, c);
            if (!anyRoom) continue;
            expect(chosen).to.be.at.most(cost(alt) + 1e-6);
          }
        });
        if (anyRoom) {
          const k = out.findIndex((r) => r.includes(c));
          expect(out[k]!.reduce((a, x) => a + p.demand[x]!, 0)).to.be.at.most(p.capacity[vehicles[k]!]!);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("eliminates a spare route when the others have room, keeping the solution feasible and cheaper", () => {
    // 60 customers, capacity 40: the demand needs about 3 routes; the start uses 6 half-full ones.
    const p = compileRequest(request(60, 8, 40, 7)).problem;
    const routes: number[][] = Array.from({ length: 8 }, () => []);
    Array.from(p.customers).forEach((c, i) => routes[i % 6]!.push(c));
    const current = { routes };
    const before = evaluateSolution(p, current);
    expect(before.feasible).to.equal(true);
    const routeOf = new Int32Array(p.nodeCount).fill(-1);
    routes.forEach((r, v) => r.forEach((c) => (routeOf[c] = v)));
    const squeeze = new FleetSqueeze(fleetFloor(p)!, p.vehicleCount);
    const budget = Budget.forSeconds(5, 1);
    const context = {
      p,
      current,
      routeOf,
      near: nearestNeighbours(p, 20),
      target: 20,
      seconds: 0.2,
      solver: hgs,
      pool: new MatrixPool(),
      budget,
    };
    let eliminated = 0;
    for (let i = 0; i < 4; i++) if (squeeze.attempt(context)) eliminated++;
    const after = evaluateSolution(p, current);
    expect(eliminated).to.be.greaterThan(0);
    expect(after.feasible).to.equal(true);
    expect(current.routes.filter((r) => r.length > 0).length).to.equal(6 - eliminated);
    expect(after.cost).to.be.below(before.cost);
    current.routes.forEach((r, v) => r.forEach((c) => expect(routeOf[c]).to.equal(v)));
  });
});
