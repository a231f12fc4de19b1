import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { ChangedCustomers } from "../../strategies/search/changed-customers.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { SwapStar } from "../../strategies/search/moves/swap-star.js";
import { PenaltyManager } from "../../strategies/search/penalty-manager.js";
import { Routes } from "../../strategies/search/routes.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { perVehicleSettings, type SwapStarLocalised } from "../../strategies/settings.js";
import {
  fleetArb,
  fleetInstance,
  rulesPenaltyArb,
  scratchCost,
  scratchRouteCost,
  smallRulesInstance,
  withRules,
} from "./fleet-problems.js";

/** The unordered pair of route neighbours of every customer of `routes` (depot 0 at both ends). */
function neighbourPairs(routes: number[][]): Map<number, string> {
  const out = new Map<number, string>();
  for (const route of routes) {
    const seq = [0, ...route, 0];
    for (let k = 1; k < seq.length - 1; k++) out.set(seq[k]!, [seq[k - 1]!, seq[k + 1]!].sort((a, b) => a - b).join(","));
  }
  return out;
}

describe("localised general search (promising customers: mixed fleets, windows, rules)", function () {
  this.timeout(120_000);

  it("marks exactly the customers whose pair of route neighbours changed (a reversed stretch only at its ends)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 30 }), fc.integer({ min: 1, max: 1e6 }), (n, seed) => {
        const rng = new Rng(seed);
        const changes = new ChangedCustomers(n + 1);
        const customers = Array.from({ length: n }, (_, i) => i + 1);
        const write = (routes: number[][], clock: number) => {
          for (const route of routes) changes.record(Int32Array.from([0, ...route, 0]), route.length, clock);
        };
        let routes = [rng.shuffle(customers.slice())];
        write(routes, 1);
        for (let step = 2; step < 8; step++) {
          const before = neighbourPairs(routes);
          const flat = routes.flat();
          const i = rng.int(flat.length);
          const j = i + rng.int(flat.length - i);
          // Either a reversal of [i, j] or a relocation of one customer, then a random split into routes.
          const next =
            rng.next() < 0.5
              ? [...flat.slice(0, i), ...flat.slice(i, j + 1).reverse(), ...flat.slice(j + 1)]
              : (() => {
                  const c = flat.splice(i, 1)[0]!;
                  flat.splice(rng.int(flat.length + 1), 0, c);
                  return flat;
                })();
          const cut = rng.int(next.length + 1);
          routes = [next.slice(0, cut), next.slice(cut)].filter((r) => r.length > 0);
          write(routes, step);
          const after = neighbourPairs(routes);
          for (const c of customers)
            expect(changes.changedAt[c] === step, `customer ${c} at step ${step}`).to.equal(before.get(c) !== after.get(c));
        }
      }),
      { numRuns: 200, seed: 5 },
    );
  });

  it("prices every move of a localised run exactly, after a ruin and recreate from a local optimum", () => {
    let moves = 0;
    fc.assert(
      fc.property(fleetArb("none"), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const p = compileRequest(fleetInstance(o)).problem;
        const m = buildProblemData(p);
        const rng = new Rng(seed);
        const rs = new Routes(m);
        rs.trackChanges();
        const pen = { load: 1 + rng.next() * 20, duration: 1, timeWarp: 1 };
        rs.penalties = pen;
        const routes: number[][] = Array.from({ length: m.routes }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
        rs.loadRoutes(routes);
        const ls = LocalSearch.perVehicle(rs);
        ls.run(rng);
        const optimum = rs.totalCost();
        // Nothing changed since the focus: a localised run finds nothing to do at a local optimum.
        ls.focus();
        ls.run(rng);
        expect(rs.totalCost()).to.equal(optimum);
        let total = optimum;
        recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length)));
        total = rs.totalCost();
        ls.onCommit = (predicted, ra, rb) => {
          moves++;
          const now = rs.routes();
          const actual = scratchRouteCost(p, ra, pen, now[ra]!) + (rb >= 0 ? scratchRouteCost(p, rb, pen, now[rb]!) : 0);
          expect(predicted).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
          expect(rs.totalCost()).to.be.lessThan(total);
          total = rs.totalCost();
        };
        ls.run(rng);
        const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
        expect(sorted(rs.routes().flat())).to.deep.equal(sorted(Array.from(m.customers)));
      }),
      { numRuns: 200, seed: 41 },
    );
    expect(moves, "localised runs applied moves").to.be.greaterThan(50);
  });

  it(
    "under windows and rules: prices every move of a localised run exactly, repairs " +
      "included, and serves every customer it may not skip",
    () => {
      let moves = 0;
      let repairMoves = 0;
      fc.assert(
        fc.property(
          fc.oneof(fleetArb("hard", 14), fleetArb("soft", 14), fleetArb("none", 14)),
          fc.boolean(),
          rulesPenaltyArb,
          fc.integer({ min: 1, max: 1e6 }),
          (o, rules, pen, seed) => {
            const base = fleetInstance(o);
            const p = compileRequest(rules ? withRules(base, o.seed, seed % 2 === 0) : base).problem;
            const m = buildProblemData(p);
            const rng = new Rng(seed);
            const rs = new Routes(m);
            rs.trackChanges();
            rs.penalties = pen;
            const routes: number[][] = Array.from({ length: m.routes }, () => []);
            const allowed = m.rules?.allowed ?? null;
            for (const c of rng.shuffle(Array.from(m.customers))) {
              const may = Array.from({ length: m.routes }, (_, v) => v).filter(
                (v) => allowed === null || allowed[v * m.nodeCount + c] === 1,
              );
              if (may.length > 0) routes[may[rng.int(may.length)]!]!.push(c);
            }
            rs.loadRoutes(routes);
            const ls = LocalSearch.perVehicle(rs);
            ls.run(rng);
            const optimum = rs.totalCost();
            ls.focus();
            ls.run(rng);
            expect(rs.totalCost(), "a localised run at a local optimum changes nothing").to.equal(optimum);
            let repairing = false;
            ls.onCommit = (predicted, ra, rb) => {
              moves++;
              if (repairing) repairMoves++;
              const now = rs.routes();
              const actual = scratchCost(p, ra, rs.penalties, now[ra]!) + (rb >= 0 ? scratchCost(p, rb, rs.penalties, now[rb]!) : 0);
              expect(predicted, `move on routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
            };
            for (let round = 0; round < 3; round++) {
              ls.focus();
              recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(m.customers.length), rules));
              ls.run(rng);
              // A repair as the iterated search makes it: raised prices, the violating routes examined again.
              repairing = true;
              rs.penalties = {
                ...pen,
                load: pen.load * 10,
                timeWarp: pen.timeWarp * 10,
                duration: pen.duration * 10,
                distance: pen.distance * 10,
                stops: pen.stops * 10,
              };
              rs.reprice();
              ls.revisitViolating();
              ls.run(rng);
              rs.penalties = pen;
              rs.reprice();
              ls.revisitViolating();
              repairing = false;
            }
            const served = rs.routes().flat();
            expect(new Set(served).size, "no customer twice").to.equal(served.length);
            for (const [v, route] of rs.routes().entries())
              for (const c of route)
                expect(allowed === null || allowed[v * m.nodeCount + c] === 1, `customer ${c} on vehicle ${v}`).to.equal(true);
            if (!rules) expect(served.length, "every customer served").to.equal(m.customers.length);
          },
        ),
        { numRuns: 150, seed: 43 },
      );
      expect(moves, "localised runs applied moves").to.be.greaterThan(200);
      expect(repairMoves, "repairs applied moves").to.be.greaterThan(10);
    },
  );

  it("is on under windows without rules or load order and under skills, off under other rules and when a benchmark turns it off", () => {
    const timed = buildProblemData(
      compileRequest(
        fleetInstance({
          customers: 10,
          types: 1,
          depots: 2,
          mixedEnds: false,
          asymmetric: false,
          cost: false,
          time: "hard",
          hours: true,
          speeds: false,
          seed: 3,
        }),
      ).problem,
    );
    const withSkills = smallRulesInstance("hard");
    const skilled = buildProblemData(compileRequest(withSkills).problem);
    expect(skilled.rules?.allowed, "the instance needs skills").to.not.equal(null);
    const ruled = buildProblemData(compileRequest({ ...withSkills, node_skills: undefined, vehicle_skills: undefined }).problem);
    expect(ruled.rules?.allowed ?? null).to.equal(null);
    expect(perVehicleSettings(timed)).to.deep.equal({
      focus: true,
      feasibleCurrent: true,
      thresholdWeight: null,
      setPartitioning: false,
      ruinStrength: null,
    });
    // Skills: the ruin that grows on a full fleet (settings/per-vehicle.ts ruinStrengthOf).
    expect(perVehicleSettings(skilled)).to.deep.equal({
      focus: true,
      feasibleCurrent: true,
      thresholdWeight: null,
      setPartitioning: false,
      ruinStrength: { growth: 0.05, max: 3 },
    });
    expect(perVehicleSettings(ruled).focus).to.equal(false);
    const off = { perVehicle: { focus: false, feasibleCurrent: false } };
    expect(perVehicleSettings(timed, off)).to.deep.equal({
      focus: false,
      feasibleCurrent: false,
      thresholdWeight: null,
      setPartitioning: false,
      ruinStrength: null,
    });
    expect(perVehicleSettings(ruled, off).focus).to.equal(false);
  });

  it("tries SWAP* in a focused run when swapStarLocalised says: after every pass, after idle passes only, or never", () => {
    // The same ruins of the same local optima under each setting: SWAP* passes counted in the focused runs.
    const passes = (when: SwapStarLocalised): number => {
      const original = SwapStar.prototype.passLocalised;
      let calls = 0;
      let focused = false;
      SwapStar.prototype.passLocalised = function (this: SwapStar, rng: Rng) {
        if (focused) calls++;
        return original.call(this, rng);
      };
      try {
        for (let seed = 1; seed <= 6; seed++) {
          const m = buildProblemData(compileRequest(smallRulesInstance("hard")).problem);
          const rng = new Rng(seed);
          const rs = new Routes(m);
          rs.trackChanges();
          rs.penalties = { load: 10, duration: 1, timeWarp: 1 };
          const routes: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
          rs.loadRoutes(routes);
          const ls = LocalSearch.perVehicle(rs, { perVehicle: { swapStarLocalised: when } });
          ls.run(rng);
          for (let round = 0; round < 5; round++) {
            ls.focus();
            recreate(ls.pricing, rng, ruin(rs, rng, 4));
            focused = true;
            ls.run(rng);
            focused = false;
          }
        }
      } finally {
        SwapStar.prototype.passLocalised = original;
      }
      return calls;
    };
    const every = passes("everyPass");
    const idle = passes("idlePass");
    expect(every, "focused runs try SWAP* after every pass").to.be.greaterThan(0);
    expect(idle, "after idle passes only").to.be.greaterThan(0).and.lessThan(every);
    expect(passes("never")).to.equal(0);
  });

  it("with fixed costs and the floor, never lowers the load price below its starting value", () => {
    const req = fleetInstance({
      customers: 20,
      types: 3,
      depots: 1,
      mixedEnds: false,
      asymmetric: false,
      cost: true,
      time: "none",
      hours: false,
      speeds: false,
      seed: 9,
    });
    const m = buildProblemData(compileRequest(req).problem);
    const floored = PenaltyManager.forProblem(m, 10, true);
    const free = PenaltyManager.forProblem(m, 10, false);
    const start = floored.current.load;
    for (let k = 0; k < 200; k++) {
      floored.record({ load: true, duration: true, timeWarp: true });
      free.record({ load: true, duration: true, timeWarp: true });
      floored.adapt();
      free.adapt();
    }
    expect(floored.current.load).to.equal(start);
    expect(free.current.load).to.be.lessThan(start);
  });
});
