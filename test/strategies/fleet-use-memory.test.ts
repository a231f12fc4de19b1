import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { TypePrices } from "../../strategies/search/moves/type-prices.js";
import { FleetUse } from "../../strategies/search/moves/vehicle-change.js";
import { Pieces } from "../../strategies/search/pieces.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { PerVehiclePricing } from "../../strategies/search/pricing/per-vehicle.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance, scratchRouteCost, type FleetOptions } from "./fleet-problems.js";

/** Four price sets, so that the memory's three slots are both found again and replaced. */
const PRICES: Penalties[] = [
  { load: 7, duration: 3, timeWarp: 5 },
  { load: 70, duration: 30, timeWarp: 50 },
  { load: 0.5, duration: 0.2, timeWarp: 0.4 },
  { load: 700, duration: 300, timeWarp: 500 },
];

/** A route store with random routes on random vehicles, its pricing counting every candidate it prices. */
function store(p: CompiledProblem, seed: number): { rs: Routes; pricing: PerVehiclePricing; priced: () => number } {
  const m = buildProblemData(p);
  const rng = new Rng(seed);
  const rs = new Routes(m);
  rs.penalties = PRICES[0]!;
  const start: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) start[rng.int(m.routes)]!.push(c);
  rs.loadRoutes(start);
  let priced = 0;
  const base = rs.candidates.basePrice.bind(rs.candidates);
  rs.candidates.basePrice = (...args) => {
    priced++;
    return base(...args);
  };
  return { rs, pricing: new PerVehiclePricing(rs), priced: () => priced };
}

/**
 * The same change on a store (the same seed gives the same change on equal stores): a ruin and
 * recreate, new prices, a route to another vehicle, or none.
 */
function change(rs: Routes, pricing: PerVehiclePricing, rng: Rng): void {
  const kind = rng.int(4);
  if (kind === 0) recreate(pricing, rng, ruin(rs, rng, 1 + rng.int(3)));
  if (kind === 1) {
    rs.penalties = PRICES[rng.int(PRICES.length)]!;
    rs.reprice();
  }
  if (kind === 2) {
    const r = rng.int(rs.m.routes);
    const free = pricing.emptyOfType(rng.int(rs.m.typeSlots.length), r);
    if (rs.length[r]! > 0 && free >= 0) {
      const customers = rs.seq[r]!.slice(1, rs.length[r]! + 1);
      rs.setRoute(free, customers, customers.length);
      rs.setRoute(r, customers, 0);
    }
  }
}

/**
 * Runs a remembering FleetUse and one that prices everything on equal stores through `steps` equal
 * changes; they must find the same routes after each. Returns whether the memory priced fewer
 * candidates and how many calls changed anything.
 */
function sameRoutes(o: FleetOptions, seed: number, steps: number): { fewer: boolean; changes: number } | null {
  const p = compileRequest(fleetInstance({ ...o, types: Math.max(2, o.types) })).problem;
  const remembering = store(p, seed);
  const reference = store(p, seed);
  if (remembering.rs.m.typeSlots.length < 2) return null;
  const memory = new FleetUse(remembering.pricing);
  const everything = new FleetUse(reference.pricing, false);
  remembering.pricing.onCommit = (predicted, ra, rb) => {
    const rs = remembering.rs;
    const now = rs.routes();
    const pen = rs.penalties;
    const actual = scratchRouteCost(p, ra, pen, now[ra]!) + scratchRouteCost(p, rb, pen, now[rb]!);
    expect(predicted, `vehicle change on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
  };
  const rngA = new Rng(seed + 1);
  const rngB = new Rng(seed + 1);
  let changes = 0;
  for (let step = 0; step < steps; step++) {
    const changed = memory.improve();
    expect(everything.improve(), `step ${step}`).to.equal(changed);
    expect(remembering.rs.routes(), `step ${step}`).to.deep.equal(reference.rs.routes());
    if (changed) changes++;
    change(remembering.rs, remembering.pricing, rngA);
    change(reference.rs, reference.pricing, rngB);
  }
  expect(remembering.priced()).to.be.at.most(reference.priced());
  return { fewer: remembering.priced() < reference.priced(), changes };
}

describe("vehicle changes remember what did not pay (moves/vehicle-change.ts FleetUse)", function () {
  this.timeout(120_000);

  it("find the same routes as pricing everything on every call, price fewer candidates, and price each change exactly", () => {
    let fewer = 0;
    let changes = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.oneof(fleetArb("none", 20), fleetArb("hard", 20)), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const run = sameRoutes(o, seed, 25);
        if (run === null) return;
        runs++;
        changes += run.changes;
        if (run.fewer) fewer++;
      }),
      { numRuns: 150, seed: 48 },
    );
    expect(runs, "mixed fleets drawn").to.be.greaterThan(100);
    expect(changes, "vehicle changes made").to.be.greaterThan(100);
    expect(fewer, "runs where the memory spared prices").to.be.greaterThan(runs / 2);
  });

  it("price again the pairs of a route that swapped vehicles earlier in the same call", () => {
    // Found by the property above over more runs: a swap in one call, then the swapped route swaps again.
    const o: FleetOptions = {
      customers: 15,
      types: 3,
      depots: 1,
      mixedEnds: true,
      asymmetric: false,
      cost: true,
      time: "hard",
      hours: true,
      speeds: false,
      seed: 999981,
    };
    expect(sameRoutes(o, 980291, 40)?.changes).to.be.greaterThan(0);
  });

  it("take a route's base price on a vehicle type from any vehicle of it: the same number on each (TypePrices)", () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.oneof(fleetArb("none", 15), fleetArb("hard", 15)), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const p = compileRequest(fleetInstance({ ...o, types: Math.max(2, o.types) })).problem;
        const { rs, pricing } = store(p, seed);
        const m = rs.m;
        const prices = new TypePrices(m.routes, m.typeSlots.length);
        const rng = new Rng(seed + 2);
        const whole = new Pieces();
        for (let step = 0; step < 6; step++) {
          for (let r = 0; r < m.routes; r++) {
            if (rs.length[r] === 0) continue;
            // Each type priced through one vehicle of it, then read back for every vehicle of it.
            for (const slots of m.typeSlots) prices.of(rs, r, slots[rng.int(slots.length)]!);
            for (let v = 0; v < m.routes; v++) {
              const direct = rs.candidates.basePrice(v, whole.reset().add(r, 1, rs.length[r]!));
              expect(Object.is(prices.of(rs, r, v), direct), `route ${r} on vehicle ${v}`).to.equal(true);
              compared++;
            }
          }
          change(rs, pricing, rng);
          // New penalties are a new memory (FleetUse keeps one per price set).
          prices.forget();
        }
      }),
      { numRuns: 120, seed: 51 },
    );
    expect(compared).to.be.greaterThan(1000);
  });
});
