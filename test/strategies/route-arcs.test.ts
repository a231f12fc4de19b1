import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { withOpenEnd } from "../../strategies/search/open-routes.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { TimeSegment } from "../../strategies/search/time-segment.js";
import { fleetArb, fleetInstance } from "./fleet-problems.js";

/** Every customer on a random vehicle, then a few routes rewritten as random orders of their own customers. */
function shuffledRoutes(o: Parameters<typeof fleetInstance>[0], seed: number): Routes {
  const m = buildProblemData(withOpenEnd(compileRequest(fleetInstance(o)).problem));
  const rs = new Routes(m);
  const rng = new Rng(seed);
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of m.customers) routes[rng.int(m.routes)]!.push(c);
  rs.loadRoutes(routes);
  for (let t = 0; t < 3; t++) {
    const r = rng.int(m.routes);
    const order = rng.shuffle(routes[r]!.slice(0, 1 + rng.int(routes[r]!.length + 1)));
    rs.setRoute(r, Int32Array.from(order), order.length);
  }
  return rs;
}

describe("the route model's arcs, symmetry and time segments", () => {
  it("holds each route's arcs as its own vehicle's matrix entries, bit for bit, after loads and rewrites", () => {
    fc.assert(
      fc.property(fleetArb("none", 14), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const rs = shuffledRoutes(o, seed);
        const n = rs.m.nodeCount;
        for (let r = 0; r < rs.m.routes; r++) {
          const seq = rs.seq[r]!;
          for (let k = 0; k <= rs.length[r]!; k++) expect(rs.arc[r]![k]).to.equal(rs.slotMatrix[r]![seq[k]! * n + seq[k + 1]!]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("reads distances from either end only when every vehicle's matrix is the same both ways, bit for bit", () => {
    let symmetric = 0;
    let asymmetric = 0;
    fc.assert(
      fc.property(fleetArb("none", 10), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const rs = shuffledRoutes(o, seed);
        const n = rs.m.nodeCount;
        const same = rs.slotMatrix.every((d) => d.every((value, at) => value === d[(at % n) * n + Math.floor(at / n)]));
        expect(rs.symmetric).to.equal(same);
        if (same) symmetric++;
        else asymmetric++;
      }),
      { numRuns: 60 },
    );
    // Both kinds were met, so the check above was made each way.
    expect(symmetric).to.be.greaterThan(0);
    expect(asymmetric).to.be.greaterThan(0);
  });

  it("builds the same whole-route segment from the stored prefix, the stored suffix and the visits one by one", () => {
    fc.assert(
      fc.property(fleetArb("hard", 14), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const rs = shuffledRoutes(o, seed);
        const times = rs.times;
        if (times === null) return;
        const close = (a: TimeSegment, b: TimeSegment) => {
          for (const field of ["duration", "timeWarp", "earliest", "latest"] as const) expect(a[field]).to.be.closeTo(b[field], 1e-6);
          expect(a.last).to.equal(b.last);
        };
        for (let r = 0; r < rs.m.routes; r++) {
          const len = rs.length[r]!;
          if (len === 0) continue;
          const seq = rs.seq[r]!;
          const oneByOne = new TimeSegment();
          const stopped = times.listSegment(r, seq.subarray(1, len + 1), len);
          oneByOne.set(stopped.duration, stopped.timeWarp, stopped.earliest, stopped.latest, stopped.first, stopped.last);
          const whole = new TimeSegment();
          const fromPrefix = times.whole(r, seq, len);
          whole.set(fromPrefix.duration, fromPrefix.timeWarp, fromPrefix.earliest, fromPrefix.latest, fromPrefix.first, fromPrefix.last);
          close(whole, oneByOne);
          // Start, the suffix from the first customer on, end: the suffix fields in their places too.
          const fromSuffix = times.finish(times.appendTail(times.startInto(new TimeSegment(), r), r, seq, 1, len), r);
          close(fromSuffix, oneByOne);
          // Start, the prefix up to a middle position, the suffix after it, end.
          const k = 1 + (seed % len);
          const split = times.finish(
            times.appendTail(times.appendHead(times.startInto(new TimeSegment(), r), r, seq, k), r, seq, k + 1, len),
            r,
          );
          close(split, oneByOne);
        }
      }),
      { numRuns: 60 },
    );
  });
});
