import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { cvrpRequest } from "../helpers/requests.js";
import { Rng } from "../../strategies/core/rng.js";
import { moveLoadToRoom, onlyLoadBinds } from "../../strategies/ils/load-room.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildModel } from "../../strategies/search/identical-vehicles-model.js";
import { completeRoutes } from "../../strategies/search/identical-vehicles/solutions.js";
import type { ProblemData } from "../../strategies/search/problem-data.js";

/** A tight fleet: 120 customers of demand 1-9 on 11 vehicles with a few units of room in all. */
function tightModel(seed: number): ProblemData {
  const request = cvrpRequest({ customers: 120, vehicles: 11, capacity: 1, seed }) as SolveRequestInput & { node_demands: number[] };
  const total = request.node_demands.reduce((sum, d) => sum + d, 0);
  (request as { vehicles_capacity: number[] }).vehicles_capacity = Array(11).fill(Math.ceil(total / 11) + 2);
  const built = buildModel(compileRequest(request).problem);
  if (!built.ok) throw new Error(built.reason);
  return built.model;
}

/** Customers shuffled and dealt into routes of random lengths: some overloaded, some with room. */
function dealt(m: ProblemData, rng: Rng): number[][] {
  const customers = Array.from(m.customers);
  for (let k = customers.length - 1; k > 0; k--) {
    const t = rng.int(k + 1);
    [customers[k], customers[t]] = [customers[t]!, customers[k]!];
  }
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of customers) routes[rng.int(m.routes)]!.push(c);
  return routes;
}

const load = (m: ProblemData, route: readonly number[]) => route.reduce((sum, c) => sum + m.demand[c]!, 0);
const excessOf = (m: ProblemData, routes: readonly (readonly number[])[]) =>
  routes.reduce((sum, route, r) => sum + Math.max(0, load(m, route) - m.capacity[r]!), 0);
const sorted = (routes: readonly (readonly number[])[]) => routes.flat().sort((a, b) => a - b);

describe("room for load beyond the granular neighbours (ils/load-room.ts)", () => {
  it("applies where load is the only rule", () => {
    expect(onlyLoadBinds(tightModel(1))).to.equal(true);
    // A duration cap (CMT's route-length limits) or an order rule is a second rule a relocation could break.
    const m = tightModel(1);
    expect(onlyLoadBinds({ ...m, durationLimit: 100 })).to.equal(false);
    expect(onlyLoadBinds({ ...m, richLoads: true })).to.equal(false);
  });

  it("takes excess off overloaded routes into routes with room, never overloading one, until no customer fits elsewhere", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const m = tightModel(seed);
      const rng = new Rng(seed);
      const start = dealt(m, rng);
      const ls = LocalSearch.identicalVehicles(m);
      ls.penalties = { load: 10, duration: 1, timeWarp: 1 };
      ls.loadRoutes(start);
      const wasOver = start.map((route, r) => load(m, route) > m.capacity[r]!);
      expect(moveLoadToRoom(ls), `seed ${seed}: something moves`).to.equal(true);
      const after = ls.routes();
      expect(sorted(after), "every customer once").to.deep.equal(sorted(start));
      expect(excessOf(m, after)).to.be.lessThan(excessOf(m, start));
      for (let r = 0; r < m.routes; r++) {
        expect(ls.loadOf(r), "the route model's load is the routes'").to.equal(load(m, after[r]!));
        if (!wasOver[r]) expect(load(m, after[r]!), `seed ${seed}: route ${r} had room and keeps within it`).to.be.at.most(m.capacity[r]!);
      }
      // What is left over cannot be relieved by one relocation: no other route has room for any of its customers.
      for (let r = 0; r < m.routes; r++) {
        if (load(m, after[r]!) <= m.capacity[r]!) continue;
        for (const u of after[r]!)
          for (let q = 0; q < m.routes; q++)
            if (q !== r) expect(m.capacity[q]! - load(m, after[q]!), `seed ${seed}: room for ${u} on ${q}`).to.be.lessThan(m.demand[u]!);
      }
      // The route model's running cost is what a fresh load of the same routes prices.
      const fresh = LocalSearch.identicalVehicles(m);
      fresh.penalties = ls.penalties;
      fresh.loadRoutes(after);
      expect(ls.totalCost()).to.be.closeTo(fresh.totalCost(), 1e-6);
    }
  });

  it("completes a construction by placing what it left out where there is room", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const m = tightModel(seed);
      const rng = new Rng(100 + seed);
      // A construction that fits but leaves a few customers out, as savings on a tight fleet do.
      const routes: number[][] = Array.from({ length: m.routes }, () => []);
      const left: number[] = [];
      for (const c of m.customers) {
        const r = rng.int(m.routes);
        if (load(m, routes[r]!) + m.demand[c]! <= m.capacity[r]! - 3) routes[r]!.push(c);
        else left.push(c);
      }
      expect(left.length).to.be.greaterThan(0);
      const complete = completeRoutes(
        m,
        routes.map((r) => r.slice()),
      );
      expect(sorted(complete)).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
      // Placed largest first into the least excess: the excess is at most what the room could not take.
      const room = routes.reduce((sum, route, r) => sum + m.capacity[r]! - load(m, route), 0);
      const leftLoad = left.reduce((sum, c) => sum + m.demand[c]!, 0);
      expect(excessOf(m, complete)).to.be.at.least(Math.max(0, leftLoad - room));
      expect(excessOf(m, complete), "spread over the routes with room, not piled on the last").to.be.lessThan(
        excessOf(
          m,
          routes.map((r, k) => (k === m.routes - 1 ? [...r, ...left] : r)),
        ),
      );
    }
  });
});
