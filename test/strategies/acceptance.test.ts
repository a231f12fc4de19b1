import { expect } from "chai";
import fc from "fast-check";
import { InfeasibleCandidates, LateAcceptance, ThresholdAcceptance } from "../../strategies/ils/acceptance.js";

describe("acceptance criteria of the iterated local search", () => {
  it("late acceptance takes a candidate that beats the current one or the current one of `length` iterations ago", () => {
    const late = new LateAcceptance(3, 100);
    expect(late.accept(100, 101, 0)).to.equal(false); // slot 0 holds 100
    expect(late.accept(100, 99, 0)).to.equal(true); // better than current; slot 1 becomes 99
    expect(late.accept(99, 99.5, 0)).to.equal(true); // worse than current, better than slot 2 (100)
    expect(late.accept(99.5, 100.5, 0)).to.equal(false); // back to slot 0 (100): neither
  });

  it("late acceptance matches its definition on random cost sequences", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 40 }),
        (length, costs) => {
          const late = new LateAcceptance(length, 50);
          const history = new Array<number>(length).fill(50);
          let current = 50;
          costs.forEach((candidate, k) => {
            const slot = k % length;
            const expected = candidate < current || candidate < history[slot]!;
            expect(late.accept(current, candidate, 0)).to.equal(expected);
            if (expected) current = candidate;
            history[slot] = Math.min(history[slot]!, current);
          });
        },
      ),
    );
  });

  it("late acceptance's bound is the cost a candidate must be under to be accepted next", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 40 }),
        (length, tolerance, costs) => {
          const late = new LateAcceptance(length, 50, { tolerance });
          let current = 50;
          for (const candidate of costs) {
            const bound = late.bound(current);
            const accepted = late.accept(current, candidate, 0);
            expect(accepted).to.equal(candidate < bound);
            if (accepted) current = candidate;
          }
        },
      ),
    );
  });

  it("the annealed threshold accepts up to (1 - w) best + w mean of recent candidates, w shrinking to 0 with the budget", () => {
    const threshold = new ThresholdAcceptance(4, 0.5);
    expect(threshold.accept(10, 10, 0)).to.equal(true); // alone: best = mean = 10
    expect(threshold.accept(10, 20, 0)).to.equal(false); // best 10, mean 15, w 0.5: 12.5 < 20
    expect(threshold.accept(10, 12, 0)).to.equal(true); // best 10, mean 14, limit 12
    // At the end of the budget only the recent best (or better than current) passes.
    expect(threshold.accept(10, 10.5, 1)).to.equal(false);
    expect(threshold.accept(10, 9, 1)).to.equal(true);
  });

  it("the annealed threshold forgets its history on reset and never lets an infinite cost in", () => {
    const threshold = new ThresholdAcceptance(4, 1);
    threshold.accept(10, 1000, 0);
    expect(threshold.accept(10, Number.POSITIVE_INFINITY, 0)).to.equal(false);
    threshold.reset();
    expect(threshold.accept(10, 11, 0)).to.equal(true); // alone after the reset
    expect(threshold.accept(10, 500, 0)).to.equal(false); // best 11, mean 255.5, w 1: limit 255.5
  });

  it("late acceptance with a tolerance asks for a margin, and may keep its history across price changes", () => {
    const late = new LateAcceptance(2, 100, { tolerance: 1, keepAcrossPrices: true });
    expect(late.accept(100, 99.5, 0)).to.equal(false); // within the tolerance of both
    expect(late.accept(100, 98.5, 0)).to.equal(true);
    late.pricesChanged(50); // kept: slot 0 still holds 100
    expect(late.accept(98.5, 99, 0)).to.equal(false); // slot 0: 100 - 1 = 99, not beaten
    late.reset(200); // a restart starts afresh whatever the option
    expect(late.accept(150, 180, 0)).to.equal(true);
    const plain = new LateAcceptance(2, 100);
    plain.pricesChanged(10);
    expect(plain.accept(10, 50, 0)).to.equal(false); // the history was refilled at the new prices
  });

  it("an infeasible candidate is refused once a feasible solution is known, or taken only when cheaper", () => {
    const never = new InfeasibleCandidates(true, false);
    expect(never.judge(false, 10, 5, true)).to.equal(false);
    expect(never.judge(false, 10, 5, false)).to.equal(null); // no feasible solution yet: the criterion decides
    expect(never.judge(true, 10, 50, true)).to.equal(null); // feasible: the criterion decides
    const cheaper = new InfeasibleCandidates(false, true);
    expect(cheaper.judge(false, 10, 9, true)).to.equal(true);
    expect(cheaper.judge(false, 10, 11, true)).to.equal(false);
  });
});
