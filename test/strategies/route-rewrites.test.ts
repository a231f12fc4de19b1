import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { withOpenEnd } from "../../strategies/search/open-routes.js";
import { buildProblemData, type ProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { fleetArb, fleetInstance } from "./fleet-problems.js";

/** Route r's stored numbers a rewrite may keep from before (positions 0..length + 1), as plain arrays. */
function stored(rs: Routes, r: number): Record<string, number[]> {
  const len = rs.length[r]!;
  const upTo = (a: Float64Array | Int32Array, end: number) => Array.from(a.subarray(0, end + 1));
  const out: Record<string, number[]> = {
    seq: upTo(rs.seq[r]!, len + 1),
    arc: upTo(rs.arc[r]!, len),
    skipArc: upTo(rs.skipArc[r]!, len).slice(1),
    fwd: upTo(rs.fwd[r]!, len + 1),
    bwd: upTo(rs.bwd[r]!, len + 1),
    load: upTo(rs.load[r]!, len + 1),
    serv: upTo(rs.serv[r]!, len + 1),
    places: Array.from(rs.seq[r]!.subarray(1, len + 1), (c) => rs.routeOf[c]! * 10_000 + rs.pos[c]!),
    totals: [rs.cost[r]!, rs.timeWarp[r]!, rs.duration[r]!, rs.totalDistance[r]!],
  };
  if (rs.times && len > 0) {
    out.pre = upTo(rs.times.pre[r]!, 4 * len + 3).slice(4);
    out.suf = upTo(rs.times.suf[r]!, 4 * len + 3).slice(4);
  }
  return out;
}

/**
 * A random rewrite of the kinds the search makes: a customer moved within or between routes, a stretch
 * reversed, a tail cut and put back elsewhere, or a route written again unchanged.
 */
function rewrite(rs: Routes, routes: number[][], rng: Rng): void {
  const m = rs.m;
  const a = rng.int(m.routes);
  const b = rng.int(m.routes);
  const ra = routes[a]!;
  const kind = rng.int(4);
  if (kind === 0 && ra.length > 0) {
    const [c] = ra.splice(rng.int(ra.length), 1);
    routes[b]!.splice(rng.int(routes[b]!.length + 1), 0, c!);
  } else if (kind === 1 && ra.length > 1) {
    const i = rng.int(ra.length);
    const j = i + rng.int(ra.length - i);
    ra.splice(i, j - i + 1, ...ra.slice(i, j + 1).reverse());
  } else if (kind === 2 && a !== b) {
    const tail = ra.splice(rng.int(ra.length + 1));
    routes[b]!.unshift(...tail);
  }
  rs.setRoute(a, Int32Array.from(ra), ra.length);
  if (b !== a) rs.setRoute(b, Int32Array.from(routes[b]!), routes[b]!.length);
}

function model(o: Parameters<typeof fleetInstance>[0]): ProblemData {
  return buildProblemData(withOpenEnd(compileRequest(fleetInstance(o)).problem));
}

describe("the route model after rewrites", () => {
  for (const time of ["none", "hard"] as const) {
    it(`keeps what a fresh model stores, bit for bit, after many rewrites (windows: ${time})`, () => {
      let rewrites = 0;
      fc.assert(
        fc.property(fleetArb(time, 14), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
          const m = model(o);
          const rs = new Routes(m);
          const rng = new Rng(seed);
          const routes: number[][] = Array.from({ length: m.routes }, () => []);
          for (const c of m.customers) routes[rng.int(m.routes)]!.push(c);
          rs.loadRoutes(routes);
          for (let t = 0; t < 25; t++) {
            rewrite(rs, routes, rng);
            rewrites++;
            const fresh = new Routes(m);
            fresh.loadRoutes(routes);
            for (let r = 0; r < m.routes; r++) expect(stored(rs, r), `route ${r} after ${t + 1} rewrites`).to.deep.equal(stored(fresh, r));
          }
        }),
        { numRuns: 40 },
      );
      expect(rewrites).to.equal(40 * 25);
    });
  }
});
