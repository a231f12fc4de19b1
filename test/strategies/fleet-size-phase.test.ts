import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Budget } from "../../strategies/core/budget.js";
import { Rng } from "../../strategies/core/rng.js";
import { FleetSizePhase } from "../../strategies/ils/fleet-size-phase.js";
import { IdenticalVehiclesBest, InPlaceCurrent } from "../../strategies/ils/identical-vehicles-parts.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { STRINGS_PERTURBATION } from "../../strategies/settings.js";
import { modelOf, penaltyArb, prizeArb, prizeProblem } from "./prize-problems.js";

const usedRoutes = (ls: LocalSearch) => ls.routes().filter((route) => route.length > 0).length;

/** Optional customers on a line from the depot, `vehicles` vehicles of ample capacity, wide windows. */
function lineProblem(customers: number, vehicles: number): SolveRequestInput {
  const pos: number[] = [0];
  for (let i = 0; i < customers; i++) pos.push(10 + 7 * i);
  return {
    objective: "min_total_distance",
    node_num: pos.length,
    vehicle_num: vehicles,
    distance_matrix: pos.map((a) => pos.map((b) => Math.abs(a - b))),
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: Array(vehicles).fill(1000),
    // The far customers pay well, the near ones little: the cheapest route to close is the near one's.
    node_skip_penalties: pos.map((x, i) => (i === 0 ? null : x > 50 ? 1000 : 1)),
    node_time_windows: pos.map((): [number, number] => [0, 100_000]),
    node_service_time: pos.map(() => 0),
    vehicle_speeds: Array(vehicles).fill(1),
  };
}

describe("fleet-size phases (ils/fleet-size-phase.ts) and the route cap (search/routes.ts)", function () {
  this.timeout(300_000);

  it("under a route cap at the routes in use, no ruin, recreate or local search opens a route", () => {
    fc.assert(
      fc.property(prizeArb(6), penaltyArb, (o, pen) => {
        const { problem: p } = compileRequest(prizeProblem(o));
        const m = modelOf(p);
        if (m.routes < 3) return;
        const rng = new Rng(o.seed);
        const ls = LocalSearch.identicalVehicles(m);
        ls.penalties = pen;
        // Customers on two routes only: every other vehicle is free, and a seed route on each served seed would open one.
        const lists: number[][] = Array.from({ length: m.routes }, () => []);
        m.customers.forEach((c, k) => lists[k % 2]!.push(c));
        ls.loadRoutes(lists);
        const cap = usedRoutes(ls);
        ls.rs.routeCap = cap;
        const ruin = new IdenticalVehiclesRuin(ls, { ...STRINGS_PERTURBATION, seedRoutes: 1 });
        for (let k = 0; k < 20; k++) {
          ruin.perturb(rng);
          ls.runLocalised(rng);
          expect(usedRoutes(ls)).to.be.at.most(cap);
        }
        ls.run(rng);
        expect(usedRoutes(ls)).to.be.at.most(cap);
      }),
      { numRuns: 60 },
    );
  });

  it("closes the route whose closing costs least while the best uses every vehicle, then gives back the routes of before when it found nothing cheaper", () => {
    const { problem: p } = compileRequest(lineProblem(9, 3));
    const m = modelOf(p);
    const budget = Budget.forSeconds(10, 1);
    const rng = new Rng(1);
    const stop = () => false;
    const ls = LocalSearch.identicalVehicles(m);
    ls.penalties = { load: 10, duration: 10, timeWarp: 10 };
    const current = new InPlaceCurrent(p, ls, rng, stop);
    const best = new IdenticalVehiclesBest(p, ls, budget);
    const near = Array.from(m.customers).filter((c) => m.skipPrice![c] === 1);
    const far = Array.from(m.customers).filter((c) => m.skipPrice![c] === 1000);
    ls.loadRoutes([near, far.slice(0, 2), far.slice(2)]);
    expect(best.record(ls.totalCost())).to.equal(true);
    current.takeHeld();
    const before = best.cost;
    const routesBefore = ls.routes();
    const phase = new FleetSizePhase(p, ls, current, best, "fullFleet", 10_000, rng, stop);

    expect(phase.step(0.05)).to.equal(false);
    expect(phase.step(0.1)).to.equal(true);
    expect(phase.running).to.equal(true);
    expect(ls.rs.routeCap).to.equal(2);
    expect(usedRoutes(ls)).to.be.at.most(2);
    // The far customers are served still; the near route is the one that closed (its stops pay 1 each).
    for (const c of far) expect(ls.rs.routeOf[c]).to.be.at.least(0);
    expect(phase.step(0.15)).to.equal(false);

    expect(phase.step(0.2)).to.equal(true);
    expect(phase.running).to.equal(false);
    expect(ls.rs.routeCap).to.equal(m.routes);
    if (best.cost < before) expect(ls.totalCost()).to.be.at.most(best.cost + 1e-6);
    else expect(ls.routes()).to.deep.equal(routesBefore);
  });

  it("starts no phase in fullFleet mode while a vehicle is free", () => {
    const { problem: p } = compileRequest(lineProblem(9, 3));
    const m = modelOf(p);
    const rng = new Rng(1);
    const ls = LocalSearch.identicalVehicles(m);
    ls.penalties = { load: 10, duration: 10, timeWarp: 10 };
    const current = new InPlaceCurrent(p, ls, rng, () => false);
    const best = new IdenticalVehiclesBest(p, ls, Budget.forSeconds(10, 1));
    ls.loadRoutes([Array.from(m.customers)]);
    expect(best.record(ls.totalCost())).to.equal(true);
    current.takeHeld();
    const phase = new FleetSizePhase(p, ls, current, best, "fullFleet", 10_000, rng, () => false);
    expect(phase.step(0.1)).to.equal(false);
    expect(ls.rs.routeCap).to.equal(m.routes);
  });
});
