import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildBackhaulModel } from "../../strategies/search/backhaul-model.js";
import { CheapestInsertions } from "../../strategies/search/moves/insertion-cache.js";
import { LocalSearch } from "../../strategies/search/textbook/local-search.js";
import { loadArb, loadInstance, type LoadOptions } from "./load-problems.js";

/** Backhaul instances the textbook transformation takes (one depot, identical vehicles, no time). */
const backhaulArb = (customers: number): fc.Arbitrary<LoadOptions> => loadArb("none", customers, "backhauls").map((o) => ({ ...o, types: 1, depots: 1, mixedEnds: false }));

/**
 * SWAP*'s cheapest insertions under the backhaul transformation (moves/insertion-cache.ts): on a
 * route that keeps the order, only the places that add no pickup -> delivery arc are scanned.
 * The three cheapest places must be exactly the full scan's cheapest places that add no such arc
 * (same places, same detours, in the same order), which is all SWAP* can choose on distance;
 * on a route that breaks the order, exactly the full scan's.
 */
describe("SWAP* insertions pruned by the backhaul order", function () {
  this.timeout(120_000);

  it("keep every place the full scan ranks without a pickup -> delivery arc, in its order, at its detour", () => {
    let compared = 0;
    let pruned = 0;
    fc.assert(
      fc.property(backhaulArb(16), fc.boolean(), (o, keepOrder) => {
        const { problem: p } = compileRequest(loadInstance(o));
        const outcome = buildBackhaulModel(p);
        if (!outcome.ok) return;
        const m = outcome.model;
        const kind = m.backhaulKind!;
        const rng = new Rng(o.seed);
        const routes = Math.max(2, m.vehicles);
        const lists: number[][] = Array.from({ length: m.vehicles }, () => []);
        for (const c of rng.shuffle(Array.from(m.customers))) lists[rng.int(Math.min(routes, m.vehicles))]!.push(c);
        // Deliveries first, then pickups (or, for half the runs, as drawn: the order may break).
        if (keepOrder) for (const l of lists) l.sort((a, b) => kind[a]! - kind[b]!);
        const ls = new LocalSearch(m);
        ls.loadRoutes(lists);
        const full = new CheapestInsertions(ls.model, null);
        const byKind = new CheapestInsertions(ls.model, kind);
        const atFull = new Int32Array(m.customers.length + 2);
        const atKind = new Int32Array(m.customers.length + 2);
        const removal = new Float64Array(m.customers.length + 2);
        for (let from = 0; from < m.vehicles; from++) {
          for (let into = 0; into < m.vehicles; into++) {
            if (from === into || ls.length[from] === 0) continue;
            full.preprocess(from, into, atFull, removal);
            byKind.preprocess(from, into, atKind, removal);
            const seq = ls.seq[into]!;
            const adds = (u: number, place: number): boolean => {
              const a = seq[place]!;
              const b = seq[place + 1]!;
              return (kind[a] === 2 && kind[u] === 1) || (kind[u] === 2 && kind[b] === 1);
            };
            const ordered = lists[into]!.every((c, k, l) => k === 0 || !(kind[l[k - 1]!] === 2 && kind[c] === 1));
            for (let k = 1; k <= ls.length[from]!; k++) {
              const u = ls.seq[from]![k]!;
              const expected: [number, number][] = [];
              for (let t = 0; t < 3; t++) {
                const place = full.pos[atFull[k]! + t]!;
                if (place < 0) break;
                if (ordered && adds(u, place)) continue;
                expected.push([place, full.cost[atFull[k]! + t]!]);
              }
              const got: [number, number][] = [];
              for (let t = 0; t < 3; t++) {
                const place = byKind.pos[atKind[k]! + t]!;
                if (place < 0) break;
                got.push([place, byKind.cost[atKind[k]! + t]!]);
              }
              // The pruned scan may also rank places beyond the full scan's three: compare the full scan's.
              expect(got.slice(0, expected.length), `customer ${u} into route ${into}`).to.deep.equal(expected);
              if (ordered) for (const [place] of got) expect(adds(u, place), `place ${place} adds a pickup -> delivery arc`).to.equal(false);
              if (expected.length < 3) pruned++;
              compared++;
            }
          }
        }
      }),
      { numRuns: 60 },
    );
    expect(compared).to.be.greaterThan(100);
    expect(pruned, "cases where the full scan ranked a place with a forbidden arc").to.be.greaterThan(0);
  });
});
