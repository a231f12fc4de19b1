import { expect } from "chai";
import fc from "fast-check";
import { FULL_FIRST_ROUND_AT, MIN_FIRST_ROUND_SHARE, firstRoundShare } from "../../strategies/large/settings.js";
import type { DecompositionSettings } from "../../strategies/settings.js";

const settings = (firstRoundShare: number): DecompositionSettings => ({
  customers: 500,
  seconds: 0.65,
  rotation: true,
  firstRoundShare,
  squeeze: true,
  windowGroups: false,
  startShare: 0.1,
});

describe("large: the first round's share of a group's time", () => {
  it("grows with the rounds the budget allows, from MIN_FIRST_ROUND_SHARE to 1 at FULL_FIRST_ROUND_AT rounds", () => {
    expect(firstRoundShare(settings(0), 0)).to.equal(MIN_FIRST_ROUND_SHARE);
    expect(firstRoundShare(settings(0), FULL_FIRST_ROUND_AT)).to.equal(1);
    expect(firstRoundShare(settings(0), 100)).to.equal(1);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const shareLow = firstRoundShare(settings(0), low);
        expect(shareLow).to.be.within(MIN_FIRST_ROUND_SHARE, 1);
        expect(firstRoundShare(settings(0), high)).to.be.at.least(shareLow);
      }),
    );
  });

  it("takes a fixed share when the settings give one (the measurement switch, and 1 for the general search's groups)", () => {
    expect(firstRoundShare(settings(1), 0.5)).to.equal(1);
    expect(firstRoundShare(settings(0.3), 50)).to.equal(0.3);
  });
});
