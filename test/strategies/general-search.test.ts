import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildFleetModel } from "../../strategies/hgs/fleet-model.js";
import { GeneralLocalSearch } from "../../strategies/hgs/general-search.js";
import type { Penalties } from "../../strategies/hgs/model.js";
import { RouteSet } from "../../strategies/hgs/route-set.js";
import { recreate, ruin } from "../../strategies/hgs/ruin-recreate.js";
import { fleetArb, fleetInstance, scratchRouteCost, type FleetOptions } from "./fleet-problems.js";

const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/**
 * Loads random routes on random vehicles (some left empty), runs the general local search and
 * checks every applied move: its predicted price equals the from-scratch price of the rewritten
 * routes on their vehicles, and the total falls. Then a ruin-and-recreate round must keep every
 * customer once at the price the route set reports.
 */
function checkEveryMove(p: CompiledProblem, pen: Penalties, seed: number): { moves: number; vehicleChanges: number } {
  const m = buildFleetModel(p);
  const rng = new Rng(seed);
  const rs = new RouteSet(m);
  rs.penalties = pen;
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
  rs.loadRoutes(routes);
  const scratchTotal = () => rs.routes().reduce((sum, r, v) => sum + scratchRouteCost(p, v, pen, r), 0);
  let total = rs.totalCost();
  expect(total).to.be.closeTo(scratchTotal(), 1e-6);
  const ls = new GeneralLocalSearch(rs);
  let moves = 0;
  let vehicleChanges = 0;
  ls.onCommit = (predicted, ra, rb) => {
    moves++;
    const now = rs.routes();
    const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
    expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
    if (rb >= 0 && m.typeOf[ra] !== m.typeOf[rb] && (now[ra]!.length === 0 || now[rb]!.length === 0)) vehicleChanges++;
    const after = rs.totalCost();
    expect(after).to.be.lessThan(total);
    total = after;
  };
  ls.run(rng);
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
  expect(rs.totalCost()).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, total));
  ls.onCommit = null;
  recreate(ls, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)));
  expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
  expect(rs.totalCost()).to.be.closeTo(scratchTotal(), 1e-6 * Math.max(1, rs.totalCost()));
  return { moves, vehicleChanges };
}

function pricingProperty(time: FleetOptions["time"], runs: number, seed: number): { moves: number; vehicleChanges: number } {
  let moves = 0;
  let vehicleChanges = 0;
  fc.assert(
    fc.property(fleetArb(time), fc.integer({ min: 1, max: 1e6 }), penaltyArb, (o, s, pen) => {
      const run = checkEveryMove(compileRequest(fleetInstance(o)).problem, pen, s);
      moves += run.moves;
      vehicleChanges += run.vehicleChanges;
    }),
    { numRuns: runs, seed },
  );
  return { moves, vehicleChanges };
}

describe("hgs general search (mixed fleets, several depots, speeds, soft windows)", function () {
  this.timeout(120_000);

  it("prices every move exactly with vehicle types, several depots and different start and end nodes", () => {
    const { moves, vehicleChanges } = pricingProperty("none", 300, 21);
    expect(moves, "the property exercised many moves").to.be.greaterThan(1000);
    expect(vehicleChanges, "routes changed vehicle type").to.be.greaterThan(10);
  });

  it("prices every move exactly under hard windows (time warp), per-vehicle speeds and working hours", () => {
    const { moves } = pricingProperty("hard", 300, 22);
    expect(moves).to.be.greaterThan(1000);
  });

  it("prices every move exactly under soft windows (lateness delays the rest of the route)", () => {
    const { moves } = pricingProperty("soft", 300, 23);
    expect(moves).to.be.greaterThan(1000);
  });

  it("builds one type per distinct vehicle and never more routes of a type than its count", () => {
    const req = fleetInstance({ customers: 10, types: 3, depots: 2, mixedEnds: true, asymmetric: true, cost: true, time: "none", hours: false, speeds: false, seed: 9 });
    const p = compileRequest(req).problem;
    const m = buildFleetModel(p);
    const counts = new Map<string, number>();
    for (let v = 0; v < p.vehicleCount; v++) {
      const key = `${req.vehicles_capacity[v]}|${req.vehicle_fixed_costs![v]}|${req.vehicle_unit_distance_costs![v]}|${req.start_nodes[v]}|${req.end_nodes[v]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(m.typeSlots.map((s) => s.length).sort()).to.deep.equal([...counts.values()].sort());
    const total = m.typeSlots.reduce((sum, s) => sum + s.length, 0);
    expect(total).to.equal(p.vehicleCount);
    const all = evaluateSolution(p, { routes: Array.from({ length: p.vehicleCount }, () => []) });
    expect(all.routes).to.have.length(p.vehicleCount);
  });
});
