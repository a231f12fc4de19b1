import { expect } from "chai";
import { betterPlan, comparePlans, planRank, usedVehicles } from "../../strategies/core/plan-order.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";

describe("plan order (vehicles under min_vehicles, then cost)", () => {
  const plain = {} as CompiledProblem;
  const fewest = { minVehicles: true } as CompiledProblem;
  const two = { routes: [[1], [2], []] };
  const one = { routes: [[1, 2], [], []] };

  it("counts the routes with a stop", () => {
    expect(usedVehicles(two.routes)).to.equal(2);
    expect(usedVehicles([[], []])).to.equal(0);
  });

  it("ranks by cost alone without min_vehicles, exactly as before", () => {
    expect(betterPlan(planRank(plain, two, 10), planRank(plain, one, 11))).to.equal(true);
    expect(betterPlan(planRank(plain, one, 11), planRank(plain, two, 10))).to.equal(false);
    expect(comparePlans(planRank(plain, one, 10), planRank(plain, two, 10))).to.equal(0);
  });

  it("puts fewer vehicles first under min_vehicles, whatever the cost, then the lower cost", () => {
    expect(betterPlan(planRank(fewest, one, 1000), planRank(fewest, two, 10))).to.equal(true);
    expect(betterPlan(planRank(fewest, two, 10), planRank(fewest, one, 1000))).to.equal(false);
    expect(betterPlan(planRank(fewest, { routes: [[2, 1], [], []] }, 999), planRank(fewest, one, 1000))).to.equal(true);
  });
});
