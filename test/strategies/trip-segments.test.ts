import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { Pieces } from "../../strategies/search/pieces.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { expandTrips } from "../../strategies/search/trip-copies.js";
import { penaltyArb, scratchPrice, tripArb, tripRequest } from "./trip-problems.js";

/**
 * The route model prices a candidate of several trips from the stored trip segments of the routes
 * it takes pieces from (search/trip-segment.ts, route-trips.ts). Every kind of piece a move makes
 * (a prefix, a suffix, a middle run, a reversed run, a loose customer or reload stop), on the
 * route's own vehicle and on another, must price as the candidate's list does from scratch.
 */
describe("route model: trip segments against the from-scratch price", function () {
  this.timeout(300_000);

  it("prices random candidates made of pieces of random multi-trip routes as their lists from scratch", () => {
    const kinds = new Set<string>();
    let priced = 0;
    fc.assert(
      fc.property(tripArb, penaltyArb, (o, pen) => {
        const q = expandTrips(compileRequest(tripRequest(o)).problem);
        const rng = new Rng(o.seed);
        const rs = new Routes(buildProblemData(q));
        rs.penalties = pen;
        const copies = q.trips!.reloadNodes;
        const lists: number[][] = Array.from({ length: q.vehicleCount }, () => []);
        for (const c of q.customers) {
          const owner = copies.findIndex((own) => own.includes(c));
          if (owner >= 0 && rng.next() < 0.6) lists[owner]!.splice(rng.int(lists[owner]!.length + 1), 0, c);
          else if (owner < 0) lists[rng.int(q.vehicleCount)]!.push(c);
        }
        rs.loadRoutes(lists);
        // Each stored route prices as its list from scratch.
        for (let v = 0; v < q.vehicleCount; v++) {
          expect(rs.cost[v]).to.be.closeTo(scratchPrice(q, v, pen, lists[v]!), 1e-6 * Math.max(1, rs.cost[v]!));
        }
        const unrouted = Array.from(q.customers).filter((c) => rs.routeOf[c]! < 0);
        for (let trial = 0; trial < 20; trial++) {
          const pieces = new Pieces();
          const list: number[] = [];
          const parts = 1 + rng.int(3);
          for (let k = 0; k < parts; k++) {
            const r = rng.int(q.vehicleCount);
            const len = rs.length[r]!;
            if (len === 0 || (unrouted.length > 0 && rng.next() < 0.2)) {
              if (unrouted.length === 0) continue;
              const c = unrouted[rng.int(unrouted.length)]!;
              if (list.includes(c)) continue;
              pieces.node(c);
              list.push(c);
              kinds.add("loose");
              continue;
            }
            const shape = rng.int(4);
            const from = shape === 0 ? 1 : 1 + rng.int(len);
            const to = shape === 1 ? len : from + rng.int(len - from + 1);
            const run = lists[r]!.slice(from - 1, to);
            if (run.some((c) => list.includes(c))) continue;
            const reversed = shape === 3;
            pieces.add(r, from, to, reversed);
            list.push(...(reversed ? run.reverse() : run));
            kinds.add(reversed ? "reversed" : from === 1 ? "prefix" : to === len ? "suffix" : "middle");
          }
          if (list.length === 0) continue;
          const v = rng.int(q.vehicleCount);
          // A vehicle may hold its own reload copies only (the moves never give it another's).
          if (list.some((c) => copies.some((own, w) => w !== v && own.includes(c)))) continue;
          const price = rs.candidates.price(v, pieces);
          const expected = scratchPrice(q, v, pen, list);
          expect(price, `vehicle ${v}, ${JSON.stringify(list)}`).to.be.closeTo(expected, 1e-6 * Math.max(1, Math.abs(expected)));
          // The same candidate again: nothing of the last candidate is left in the shared segments.
          expect(rs.candidates.price(v, pieces)).to.equal(price);
          priced++;
        }
      }),
      { numRuns: 150 },
    );
    expect(priced, "candidates priced").to.be.greaterThan(1000);
    expect([...kinds].sort()).to.deep.equal(["loose", "middle", "prefix", "reversed", "suffix"]);
  });
});
