import { expect } from "chai";
import { Budget } from "../../strategies/core/budget.js";

/** Ticks until the budget says stop; the iterations made. */
function run(budget: Budget): number {
  let made = 0;
  while (!budget.tick()) made++;
  return made;
}

describe("a search stopped at its own checkpoint when nothing feasible is found (Budget.searchUntilFeasible)", () => {
  it("stops the search at its share of an iteration budget, then hands back the caller's checkpoint", () => {
    const budget = new Budget(Number.POSITIVE_INFINITY, 1, 100);
    let callerReached = 0;
    budget.setFeasibilityCheckpoint(0.5, () => {
      callerReached++;
      return true;
    });
    const first = budget.searchUntilFeasible(0.2, () => run(budget));
    expect(first.stopped).to.equal(true);
    expect(budget.iterationCount).to.equal(20);
    expect(callerReached, "the caller's checkpoint did not fire inside").to.equal(0);
    expect(budget.checkpointReached, "the caller's search is not stopped").to.equal(false);
    run(budget);
    expect(callerReached, "the caller's checkpoint fires after").to.equal(1);
    expect(budget.iterationCount).to.equal(50);
  });

  it("runs the search to the end when it reports a feasible solution in time", () => {
    const budget = new Budget(Number.POSITIVE_INFINITY, 1, 100);
    const outcome = budget.searchUntilFeasible(0.2, () => {
      budget.improved({ routes: [] });
      return run(budget);
    });
    expect(outcome.stopped).to.equal(false);
    expect(budget.iterationCount).to.equal(100);
  });
});
