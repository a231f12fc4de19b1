import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { cvrpRequest } from "../helpers/requests.js";
import { Rng } from "../../strategies/core/rng.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { RuinStrength } from "../../strategies/ils/ruin-strength.js";
import { IdenticalVehiclesRuin } from "../../strategies/ils/identical-vehicles-ruin.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildModel } from "../../strategies/search/identical-vehicles-model.js";
import { RuinRecreate } from "../../strategies/ils/per-vehicle-parts.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetInstance } from "./fleet-problems.js";

describe("ruin strength: the identical-vehicles ruin grows while the local search undoes it", () => {
  it("grows on candidates that came back, up to its maximum, and shrinks back to 1 on others", () => {
    const strength = new RuinStrength({ growth: 0.05, max: 3 });
    let last = strength.value;
    for (let k = 0; k < 10; k++) {
      strength.outcome(true);
      expect(strength.value).to.be.greaterThan(last);
      last = strength.value;
    }
    for (let k = 0; k < 200; k++) strength.outcome(true);
    expect(strength.value).to.equal(3);
    strength.outcome(false);
    expect(strength.value).to.be.lessThan(3);
    for (let k = 0; k < 2000; k++) strength.outcome(false);
    expect(strength.value).to.equal(1);
  });

  it("settles where about a fifth of the candidates come back", () => {
    const rng = new Rng(7);
    const strength = new RuinStrength({ growth: 0.05, max: 100 });
    // Outcomes whose chance of coming back falls as the ruin grows: the size settles where it is a fifth.
    for (let k = 0; k < 20_000; k++) strength.outcome(rng.next() < 0.6 / strength.value);
    expect(strength.value).to.be.within(2, 4.5);
  });

  it("stays at SISR's size without settings", () => {
    const strength = new RuinStrength(null);
    for (let k = 0; k < 100; k++) strength.outcome(true);
    expect(strength.value).to.equal(1);
  });

  it("removes more customers per perturbation once grown, and every customer is served once after it", () => {
    // 120 customers, routes of about a dozen (demands 1-9, capacity 60).
    const { problem: p } = compileRequest(cvrpRequest({ customers: 120, vehicles: 13, capacity: 60, seed: 3 }) as SolveRequestInput);
    const built = buildModel(p);
    if (!built.ok) throw new Error(built.reason);
    const m = built.model;
    const start = clarkeWrightSolution(p).routes.slice(0, m.routes);
    const removedOnAverage = (grown: boolean): number => {
      const ls = LocalSearch.identicalVehicles(m);
      ls.penalties = { load: 10, duration: 1, timeWarp: 1 };
      const ruin = new IdenticalVehiclesRuin(ls, {
        ruin: "strings",
        stringsShare: 1,
        places: "anywhere",
        strength: { growth: 0.05, max: 3 },
      });
      for (let k = 0; k < (grown ? 100 : 0); k++) ruin.outcome(true);
      const rng = new Rng(11);
      let removed = 0;
      const rounds = 300;
      for (let round = 0; round < rounds; round++) {
        ls.loadRoutes(start);
        removed += ruin.perturb(rng);
        const served = ls
          .routes()
          .flat()
          .sort((a, b) => a - b);
        expect(served).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
      }
      return removed / rounds;
    };
    const usual = removedOnAverage(false);
    const grown = removedOnAverage(true);
    expect(usual).to.be.within(5, 15);
    expect(grown).to.be.greaterThan(1.5 * usual);
  });
});

describe("ruin strength: the general search's ruin and recreate grow while the education undoes them", () => {
  it("moves more customers per perturbation once grown on a full fleet, none more with a vehicle to spare", () => {
    const fleet = {
      customers: 60,
      types: 2,
      depots: 1,
      mixedEnds: false,
      asymmetric: false,
      cost: true,
      time: "hard",
      hours: false,
      speeds: false,
      seed: 9,
    } as const;
    const m = buildProblemData(compileRequest(fleetInstance(fleet)).problem);
    const movedOnAverage = (grown: boolean, spareVehicle = false): number => {
      const rs = new Routes(m);
      rs.penalties = { load: 10, duration: 1, timeWarp: 1 };
      const ls = LocalSearch.perVehicle(rs);
      const rng = new Rng(5);
      const start: number[][] = Array.from({ length: m.routes }, () => []);
      // With a spare vehicle the last one starts empty: the grown ruin waits for a full fleet.
      const used = spareVehicle ? m.routes - 1 : m.routes;
      for (const c of rng.shuffle(Array.from(m.customers))) start[rng.int(used)]!.push(c);
      const perturbation = new RuinRecreate(rs, ls.pricing, 5, true, 0, false, { growth: 0.05, max: 3 });
      for (let k = 0; k < (grown ? 100 : 0); k++) perturbation.outcome(true);
      const placeOf = (route: number, k: number, seq: ArrayLike<number>) => `${route}:${k === 0 ? 0 : seq[k - 1]}`;
      const before = new Map<number, string>();
      start.forEach((route, r) => route.forEach((c, k) => before.set(c, placeOf(r, k, route))));
      let moved = 0;
      const rounds = 300;
      for (let round = 0; round < rounds; round++) {
        rs.loadRoutes(start);
        perturbation.perturb(rng);
        // A customer moved when its route or its predecessor there changed.
        const served: number[] = [];
        for (let r = 0; r < m.routes; r++) {
          const after = Array.from(rs.seq[r]!.subarray(1, rs.length[r]! + 1));
          after.forEach((c, k) => {
            served.push(c);
            if (before.get(c) !== placeOf(r, k, after)) moved++;
          });
        }
        expect(served.sort((a, b) => a - b)).to.deep.equal(Array.from(m.customers).sort((a, b) => a - b));
      }
      return moved / rounds;
    };
    const usual = movedOnAverage(false);
    const grown = movedOnAverage(true);
    expect(usual).to.be.greaterThan(1);
    expect(grown).to.be.greaterThan(1.5 * usual);
    expect(movedOnAverage(true, true), "a vehicle to spare").to.equal(movedOnAverage(false, true));
  });
});
