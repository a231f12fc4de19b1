import { expect } from "chai";
import fc from "fast-check";
import { PenaltyManager, type PriceKind } from "../../strategies/search/penalty-manager.js";

const ALL: PriceKind[] = ["load", "duration", "timeWarp", "distance", "stops"];

describe("the one price adaptation (search/penalty-manager.ts)", () => {
  it(
    "after a segment, raises a price whose constraint too few outcomes kept, lowers one too many kept, " +
      "within its range, and leaves the kinds that do not adapt",
    () => {
      let raised = 0;
      let lowered = 0;
      fc.assert(
        fc.property(
          fc.subarray(ALL, { minLength: 1 }),
          fc.array(fc.double({ min: 0.01, max: 1e4, noNaN: true }), { minLength: 5, maxLength: 5 }),
          fc.integer({ min: 1, max: 60 }),
          fc.constantFrom(0.2, 0.5),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }),
          fc.integer({ min: 1, max: 40 }),
          (kinds, prices, segment, target, keepShares, rounds) => {
            const start = Object.fromEntries(ALL.map((kind, i) => [kind, prices[i]!])) as Record<PriceKind, number>;
            const manager = new PenaltyManager({ ...start }, start, kinds, segment, target);
            for (let round = 0; round < rounds; round++) {
              const before = { ...manager.current };
              const kept = Object.fromEntries(ALL.map((kind) => [kind, 0])) as Record<PriceKind, number>;
              for (let k = 0; k < segment; k++) {
                expect(manager.adapt(), "no adjustment before a segment of outcomes").to.equal(false);
                const outcome = Object.fromEntries(ALL.map((kind, i) => [kind, (k * 7919 + i * 31) % 97 < keepShares[i]! * 97])) as Record<
                  PriceKind,
                  boolean
                >;
                for (const kind of ALL) kept[kind] += outcome[kind] ? 1 : 0;
                manager.record(outcome);
              }
              expect(manager.adapt()).to.equal(true);
              for (const kind of ALL) {
                const price = manager.current[kind]!;
                if (!kinds.includes(kind)) {
                  expect(price, kind).to.equal(start[kind]);
                  continue;
                }
                expect(price).to.be.within(start[kind] * 1e-3 * (1 - 1e-12), start[kind] * 1e6 * (1 + 1e-12));
                const share = kept[kind] / segment;
                if (share < target - 0.05) {
                  expect(price, `${kind} kept by ${share}`).to.be.at.least(before[kind]!);
                  if (price > before[kind]!) raised++;
                } else if (share > target + 0.05) {
                  expect(price, `${kind} kept by ${share}`).to.be.at.most(before[kind]!);
                  if (price < before[kind]!) lowered++;
                } else expect(price, `${kind} kept by ${share}`).to.equal(before[kind]);
              }
            }
            const scaled = manager.scaled(10);
            for (const kind of ALL) expect(scaled[kind]).to.equal(manager.current[kind]! * (kinds.includes(kind) ? 10 : 1));
          },
        ),
        { numRuns: 200, seed: 41 },
      );
      expect(raised).to.be.greaterThan(50);
      expect(lowered).to.be.greaterThan(50);
    },
  );
});
