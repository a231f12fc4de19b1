import { expect } from "chai";
import fc from "fast-check";
import { ghLike } from "../../bench/gh-like.js";
import { generateRichXxl } from "../../bench/rich-xxl-instance.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { Budget } from "../../strategies/core/budget.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { distanceBetween, hasDenseMatrix, type CompiledProblem } from "../../strategies/core/problem.js";
import { clarkeWrightSolution } from "../../strategies/clarke-wright/index.js";
import { windowAwareNeighbours } from "../../strategies/decomposition/window-near.js";
import { hgs } from "../../strategies/hgs/index.js";
import { buildsOwnMatrix, withDenseMatrix, WINDOWS_WHOLE_MAX_NODES } from "../../strategies/hgs/whole-matrix.js";
import { decompositionSettings } from "../../strategies/settings.js";
import { identicalVehiclesMismatch } from "../../strategies/search/identical-vehicles-model.js";
import { windowNeighbours, windowProximity } from "../../strategies/search/window-neighbours.js";
import { findStrategy } from "../../strategies/registry.js";
import { selectStrategy } from "../../strategies/select.js";
import { xxlFixture } from "../helpers/benchmark-fixtures.js";

/** The time-window neighbourhood by a full sort of every other customer (the definition). */
function sortedWindowNeighbours(p: CompiledProblem, k: number): Int32Array[] {
  const t = p.time!;
  const lists: Int32Array[] = new Array(p.nodeCount);
  for (const c of p.customers) {
    const key = (o: number) =>
      Math.min(
        windowProximity(t, t.speed[0]!, distanceBetween(p, c, o), c, o),
        windowProximity(t, t.speed[0]!, distanceBetween(p, o, c), o, c),
      );
    const others = Array.from(p.customers).filter((o) => o !== c);
    others.sort((a, b) => key(a) - key(b) || a - b);
    lists[c] = Int32Array.from(others.slice(0, k));
  }
  return lists;
}

describe("identical-vehicles VRPTW above 1,000 customers", function () {
  this.timeout(180_000);

  it("keeps the time-window neighbourhood of a full sort (top-k selection, ties by index)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 60 }), (index, seed, k) => {
        const p = compileRequest(ghLike(index, seed, [40 + 4 * (seed % 20)]).request).problem;
        const fast = windowNeighbours(p, k);
        const reference = sortedWindowNeighbours(p, k);
        for (const c of p.customers) expect(Array.from(fast[c]!), `customer ${c}`).to.deep.equal(Array.from(reference[c]!));
      }),
      { numRuns: 40 },
    );
  });

  it("builds the matrix itself only for identical-vehicles windows given by positions, with the evaluator's distances", () => {
    const big = compileRequest(generateRichXxl(xxlFixture("Leuven2"), 3100, 1, 1, false).request).problem;
    expect(hasDenseMatrix(big)).to.equal(false);
    expect(big.nodeCount).to.be.at.most(WINDOWS_WHOLE_MAX_NODES);
    expect(buildsOwnMatrix(big)).to.equal(true);
    expect(hgs.supports(big).ok).to.equal(true);
    const dense = withDenseMatrix(big);
    for (let i = 0; i < big.nodeCount; i += 97) {
      for (let j = 0; j < big.nodeCount; j += 89) expect(dense.dist[i * big.nodeCount + j]).to.equal(distanceBetween(big, i, j));
    }
    // Several depots and a mixed fleet: not the identical-vehicles model; hgs keeps refusing without the matrix.
    const richRequest = generateRichXxl(xxlFixture("Leuven2"), 3100, 3, 1, true).request;
    const rich = compileRequest(richRequest).problem;
    expect(buildsOwnMatrix(rich)).to.equal(false);
    expect(hgs.supports(rich).ok).to.equal(false);
    expect(
      decompositionSettings(rich, identicalVehiclesMismatch(rich) === null, { decomposition: { windowGroups: true } }).windowGroups,
    ).to.equal(false);
  });

  it("grows groups on time-aware links: each customer's list is its nearest candidates re-ranked by window proximity", () => {
    const p = compileRequest(ghLike(1, 2026, [300]).request).problem;
    const lists = windowAwareNeighbours(p);
    const full = sortedWindowNeighbours(p, p.customers.length);
    for (const c of p.customers) {
      const list = Array.from(lists[c]!);
      expect(new Set(list).size).to.equal(list.length);
      expect(list).to.not.include(c);
      // Ranked as the full window neighbourhood ranks them.
      const rank = new Map(Array.from(full[c]!).map((o, i) => [o, i]));
      for (let i = 1; i < list.length; i++) expect(rank.get(list[i - 1]!)!).to.be.below(rank.get(list[i]!)!);
    }
  });

  it("solves a generated 1,200-customer VRPTW with the selected strategy: feasible by the evaluator, cheaper than the savings", () => {
    const p = compileRequest(ghLike(1, 2026, [1200]).request).problem;
    expect(p.customers.length).to.equal(1200);
    const selected = selectStrategy(p);
    expect(selected.name).to.equal(EXPECTED_ABOVE_1000);
    const savings = evaluateSolution(p, clarkeWrightSolution(p));
    // The search passes the savings within about a second; four leave room for a busy machine.
    const budget = Budget.forSeconds(4, 1);
    const reported: number[] = [];
    budget.onImprovement((s) => reported.push(evaluateSolution(p, s).cost));
    const score = evaluateSolution(p, selected.solve(p, budget));
    expect(score.feasible).to.equal(true);
    expect(score.missing).to.deep.equal([]);
    if (savings.feasible) expect(score.cost).to.be.below(savings.cost);
    expect(reported.length).to.be.greaterThan(0);
    expect(score.cost).to.be.closeTo(reported.at(-1)!, 1e-6);
  });

  it("selects it for identical-vehicles windows up to the largest measured size, given by positions without a matrix", () => {
    const big = compileRequest(generateRichXxl(xxlFixture("Antwerp1"), 5000, 1, 1, false).request).problem;
    expect(hasDenseMatrix(big)).to.equal(false);
    expect(selectStrategy(big).name).to.equal(EXPECTED_ABOVE_1000);
    expect(findStrategy(EXPECTED_ABOVE_1000).supports(big).ok).to.equal(true);
  });
});

/** The strategy the selection gives identical-vehicles VRPTW above 1,000 customers (strategies/select.ts). */
const EXPECTED_ABOVE_1000 = "large";
