import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { localSearchSettings } from "../../strategies/settings.js";
import { fleetArb, fleetInstance, scratchRouteCost } from "./fleet-problems.js";

const pen = { load: 7, duration: 3, timeWarp: 5 };
const shuffled = { perVehicle: { emptyTypeOrder: "shuffled" as const } };
const cheapest = { perVehicle: { emptyTypeOrder: "cheapest" as const } };

describe("empty vehicles of each type offered in a shuffled order (EmptyTypeOrder)", function () {
  this.timeout(120_000);

  it("is on for mixed fleets without windows, off under windows and for fleets that differ only in depot", () => {
    const mixed = buildProblemData(compileRequest(fleetInstance({ ...fleetOptions(), types: 3 })).problem);
    const windowed = buildProblemData(compileRequest(fleetInstance({ ...fleetOptions(), types: 3, time: "hard" })).problem);
    expect(windowed.typeSlots.length).to.be.greaterThan(1);
    expect(localSearchSettings(windowed, "perVehicle").emptyTypeOrder).to.equal("cheapest");
    expect(localSearchSettings(mixed, "perVehicle").emptyTypeOrder).to.equal("shuffled");
    expect(localSearchSettings(mixed, "perVehicle", cheapest).emptyTypeOrder).to.equal("cheapest");
    expect(localSearchSettings(mixed, "identicalVehicles").emptyTypeOrder).to.equal("cheapest");
    // Two depots, every vehicle alike but for its depot.
    const req = fleetInstance({ ...fleetOptions(), depots: 2 });
    const n = req.vehicle_num;
    const depotsOnly = {
      ...req,
      start_nodes: Array.from({ length: n }, (_, v) => v % 2),
      end_nodes: Array.from({ length: n }, (_, v) => v % 2),
      vehicles_capacity: Array(n).fill(req.vehicles_capacity[0]),
      vehicle_fixed_costs: Array(n).fill(0),
      vehicle_unit_distance_costs: Array(n).fill(1),
    };
    const depots = buildProblemData(compileRequest(depotsOnly).problem);
    expect(depots.typeSlots.length).to.be.greaterThan(1);
    expect(localSearchSettings(depots, "perVehicle").emptyTypeOrder).to.equal("cheapest");
  });

  it("prices every move exactly and keeps every customer once through the search and a recreate", () => {
    let moves = 0;
    fc.assert(
      fc.property(fleetArb("none"), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const p = compileRequest(fleetInstance(o)).problem;
        const m = buildProblemData(p);
        const rng = new Rng(seed);
        const rs = new Routes(m);
        rs.penalties = pen;
        const start: number[][] = Array.from({ length: m.routes }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) start[rng.int(m.routes)]!.push(c);
        rs.loadRoutes(start);
        const ls = LocalSearch.perVehicle(rs, shuffled);
        let total = rs.totalCost();
        ls.onCommit = (predicted, ra, rb) => {
          moves++;
          const now = rs.routes();
          const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
          expect(predicted).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
          expect(rs.totalCost()).to.be.lessThan(total);
          total = rs.totalCost();
        };
        ls.run(rng);
        ls.onCommit = null;
        recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)), false, true, true);
        const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
        expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
        const scratch = rs.routes().reduce((sum, r, v) => sum + scratchRouteCost(p, v, pen, r), 0);
        expect(rs.totalCost()).to.be.closeTo(scratch, 1e-6 * Math.max(1, scratch));
      }),
      { numRuns: 200, seed: 47 },
    );
    expect(moves, "the property exercised many moves").to.be.greaterThan(500);
  });

  it("opens vehicles of more than the cheapest type for a customer alone, where the cheapest order never does", () => {
    const p = compileRequest(fleetInstance({ ...fleetOptions(), types: 3, cost: true })).problem;
    const m = buildProblemData(p);
    expect(m.typeSlots.length).to.be.greaterThan(1);
    const typesOpened = (shuffledTypes: boolean) => {
      const opened = new Set<number>();
      for (let seed = 1; seed <= 30; seed++) {
        const rs = new Routes(m);
        rs.penalties = pen;
        rs.loadRoutes(Array.from({ length: m.routes }, () => []));
        const ls = LocalSearch.perVehicle(rs);
        // Every vehicle is free: the first customer has no neighbour's route, only free vehicles.
        recreate(ls.pricing, new Rng(seed), [m.customers[0]!], false, true, shuffledTypes);
        opened.add(m.typeOf[rs.routeOf[m.customers[0]!]!]!);
      }
      return opened.size;
    };
    expect(typesOpened(false)).to.equal(1);
    expect(typesOpened(true)).to.be.greaterThan(1);
  });
});

function fleetOptions() {
  return {
    customers: 8,
    types: 2,
    depots: 1,
    mixedEnds: false,
    asymmetric: false,
    cost: true,
    time: "none" as "none" | "hard",
    hours: false,
    speeds: false,
    seed: 5,
  };
}
