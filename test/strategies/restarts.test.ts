import { expect } from "chai";
import { StagnationRestart } from "../../strategies/ils/restarts.js";

/** Calls `due` `times` times with the given iterations since the best, at a fixed share of the budget; whether any call was due. */
function dueWithin(restart: StagnationRestart, times: number, sinceBest: number, progress: number, bestKnown = true): boolean {
  let due = false;
  for (let k = 0; k < times; k++) due = restart.due(sinceBest, bestKnown, () => progress) || due;
  return due;
}

describe("restarts of the iterated local search", () => {
  it("goes back to the best after its iterations without a new best", () => {
    const restart = new StagnationRestart(50, null);
    expect(dueWithin(restart, 49, 1, 0)).to.equal(false);
    expect(dueWithin(restart, 1, 1, 0)).to.equal(true);
    // The count starts again after a restart, and a new best resets it too.
    expect(dueWithin(restart, 49, 1, 0)).to.equal(false);
    restart.due(0, true, () => 0);
    expect(dueWithin(restart, 49, 1, 0)).to.equal(false);
  });

  it("with a share of the budget, also goes back once that share has passed without a new best", () => {
    const restart = new StagnationRestart(1_000_000, 0.1);
    expect(dueWithin(restart, 40, 1, 0.3)).to.equal(false); // the clock is first read at 0.3
    expect(dueWithin(restart, 40, 1, 0.35)).to.equal(false);
    expect(dueWithin(restart, 40, 1, 0.41)).to.equal(true);
    // After the restart the share counts from the next reading.
    expect(dueWithin(restart, 40, 1, 0.45)).to.equal(false);
    expect(dueWithin(restart, 40, 1, 0.5)).to.equal(false);
    expect(dueWithin(restart, 40, 1, 0.6)).to.equal(true);
  });

  it("never goes back while no feasible plan is known", () => {
    const restart = new StagnationRestart(10, 0.1);
    expect(dueWithin(restart, 200, 1, 0.2, false)).to.equal(false);
    expect(dueWithin(restart, 200, 1, 0.9, false)).to.equal(false);
  });
});
