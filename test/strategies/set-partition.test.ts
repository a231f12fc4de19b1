import { expect } from "chai";
import fc from "fast-check";
import { highsRuntime } from "../../strategies/search/pool/highs-runtime.js";
import { solveSetPartition, type PartitionColumn } from "../../strategies/search/pool/set-partition.js";

/** The cheapest cover (optional rows at most once, others exactly once) within the group limits, by trying every subset. */
function bruteForce(rowCount: number, columns: PartitionColumn[], limits: number[], optional: Uint8Array): number {
  let best = Number.POSITIVE_INFINITY;
  for (let mask = 0; mask < 1 << columns.length; mask++) {
    const covered = new Int32Array(rowCount);
    const chosen = new Int32Array(limits.length);
    let cost = 0;
    for (let j = 0; j < columns.length; j++) {
      if (!(mask & (1 << j))) continue;
      chosen[columns[j]!.group ?? 0]!++;
      cost += columns[j]!.cost;
      for (const r of columns[j]!.rows) covered[r]!++;
    }
    const fits = limits.every((limit, g) => chosen[g]! <= limit);
    if (fits && covered.every((c, r) => c === 1 || (c === 0 && optional[r] === 1))) best = Math.min(best, cost);
  }
  return best;
}

const columnArb = (rowCount: number) =>
  fc.record({
    cost: fc.integer({ min: -20, max: 100 }),
    group: fc.integer({ min: 0, max: 1 }),
    rows: fc
      .uniqueArray(fc.integer({ min: 0, max: rowCount - 1 }), { minLength: 1, maxLength: rowCount })
      .map((rows) => Int32Array.from(rows)),
  });

describe("set partitioning (HiGHS)", function () {
  this.timeout(60_000);

  it("loads the HiGHS runtime", () => {
    expect(highsRuntime(), "npm highs instantiated").to.not.equal(null);
  });

  it("finds the cheapest cover within each group's fleet, optional rows at most once, as trying every subset does", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 6 })
          .chain((rowCount) =>
            fc.tuple(
              fc.constant(rowCount),
              fc.array(columnArb(rowCount), { minLength: 1, maxLength: 11 }),
              fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 4 })),
              fc.uint8Array({ min: 0, max: 1, minLength: rowCount, maxLength: rowCount }),
            ),
          ),
        ([rowCount, drawn, limits, optional]) => {
          // Singletons of group 1 make a cover likely (when its fleet allows it).
          const columns = [...drawn, ...Array.from({ length: rowCount }, (_, r) => ({ cost: 1000, rows: Int32Array.of(r), group: 1 }))];
          if (columns.length > 16) return;
          const optimum = bruteForce(rowCount, columns, limits, optional);
          const chosen = solveSetPartition({
            rowCount,
            optionalRows: optional,
            columns,
            groupLimits: limits,
            start: [],
            timeLimitSeconds: 10,
          });
          if (!Number.isFinite(optimum)) {
            expect(chosen, "no cover within the fleet").to.equal(null);
            return;
          }
          // Choosing nothing can be optimal when every row is optional: the solver then answers null.
          if (optimum === 0 && chosen === null) return;
          expect(chosen, "a cover exists").to.not.equal(null);
          const covered = new Int32Array(rowCount);
          const perGroup = [0, 0];
          for (const j of chosen!) {
            perGroup[columns[j]!.group ?? 0]!++;
            for (const r of columns[j]!.rows) covered[r]!++;
          }
          covered.forEach((c, r) => expect(c === 1 || (c === 0 && optional[r] === 1), `row ${r} covered ${c} times`).to.equal(true));
          limits.forEach((limit, g) => expect(perGroup[g], `group ${g} within its fleet`).to.be.at.most(limit));
          expect(chosen!.reduce((sum, j) => sum + columns[j]!.cost, 0)).to.be.closeTo(optimum, 1e-6);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("answers at least as well as the start it is given, even with almost no time", () => {
    const rowCount = 40;
    const columns: PartitionColumn[] = [];
    // Singletons (the start) and many random pairs and triples of rows.
    for (let r = 0; r < rowCount; r++) columns.push({ cost: 10, rows: Int32Array.of(r) });
    let s = 7;
    const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let k = 0; k < 400; k++) {
      const rows = new Set([Math.floor(rand() * rowCount), Math.floor(rand() * rowCount), Math.floor(rand() * rowCount)]);
      columns.push({ cost: 5 + 20 * rand(), rows: Int32Array.from(rows) });
    }
    const start = Array.from({ length: rowCount }, (_, r) => r);
    const chosen = solveSetPartition({ rowCount, columns, groupLimits: [rowCount], start, timeLimitSeconds: 0.05 });
    expect(chosen).to.not.equal(null);
    const cost = chosen!.reduce((sum, j) => sum + columns[j]!.cost, 0);
    expect(cost).to.be.at.most(10 * rowCount + 1e-9);
  });

  it("stops when asked to (a cancelled task) and answers nothing", () => {
    const rowCount = 120;
    const columns: PartitionColumn[] = Array.from({ length: rowCount }, (_, r) => ({ cost: 100, rows: Int32Array.of(r) }));
    let s = 11;
    const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    // Random columns make a hard model: without the stop it runs to its 30 s limit.
    for (let k = 0; k < 3000; k++) {
      const rows = new Set<number>();
      const size = 3 + Math.floor(rand() * 5);
      while (rows.size < size) rows.add(Math.floor(rand() * rowCount));
      columns.push({ cost: 20 * rows.size + 30 * rand(), rows: Int32Array.from(rows) });
    }
    let asked = 0;
    const start = Array.from({ length: rowCount }, (_, r) => r);
    const chosen = solveSetPartition({
      rowCount,
      columns,
      groupLimits: [rowCount],
      start,
      timeLimitSeconds: 30,
      shouldStop: () => ++asked > 0,
    });
    expect(asked, "HiGHS polled the stop").to.be.greaterThan(0);
    expect(chosen, "an interrupted solve answers nothing").to.equal(null);
  });
});
