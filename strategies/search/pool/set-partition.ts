import { disableHighs, highsRuntime } from "./highs-runtime.js";

/** One candidate route for set partitioning: its price, the rows (customers) it serves, its group (vehicle type, default 0). */
export interface PartitionColumn {
  cost: number;
  rows: Int32Array;
  group?: number;
}

export interface PartitionRequest {
  /** Rows to cover exactly once (the customers, numbered 0..rowCount-1). */
  rowCount: number;
  /** Per row, 1 when it may also stay uncovered (an optional customer; its skip price belongs in the costs). */
  optionalRows?: Uint8Array;
  columns: readonly PartitionColumn[];
  /** Per group, at most this many of its columns may be chosen (the vehicles of that type). */
  groupLimits: readonly number[];
  /** Indices of a known feasible choice, given to HiGHS as its starting incumbent. */
  start: readonly number[];
  timeLimitSeconds: number;
  /** Polled at HiGHS's checkpoints: true stops the solve (a cancelled task), and nothing is returned. */
  shouldStop?: () => boolean;
}

/**
 * Chooses columns so that every row is served exactly once (optional rows at most once), at most
 * `groupLimits[g]` of group g, at the least total cost: the set-partitioning recombination of route-pool methods (Subramanian, Uchoa
 * and Ochi's ILS-SP; Kool et al.'s HGS with SP). Solved by HiGHS within the time limit, starting
 * from `start`, so the answer is never worse than it. Returns the chosen column indices, or null
 * when HiGHS is unavailable, fails, or finds nothing better than nothing.
 */
export function solveSetPartition(request: PartitionRequest): number[] | null {
  const highs = highsRuntime();
  if (highs === null || request.columns.length === 0) return null;
  const { rowCount, columns } = request;
  const numCols = columns.length;
  // After the customers, one row per group counts its chosen columns (that type's fleet).
  const numRows = rowCount + request.groupLimits.length;
  const starts = new Int32Array(numCols + 1);
  let entries = 0;
  for (let j = 0; j < numCols; j++) {
    starts[j] = entries;
    entries += columns[j]!.rows.length + 1;
  }
  starts[numCols] = entries;
  const indices = new Int32Array(entries);
  const values = new Float64Array(entries).fill(1);
  const colCost = new Float64Array(numCols);
  for (let j = 0; j < numCols; j++) {
    const column = columns[j]!;
    colCost[j] = column.cost;
    // HiGHS wants each column's row indices without repeats; sorted keeps presolve's work small.
    const rows = Int32Array.from(column.rows).sort();
    indices.set(rows, starts[j]!);
    indices[starts[j]! + rows.length] = rowCount + (column.group ?? 0);
  }
  const rowLower = new Float64Array(numRows).fill(1);
  const rowUpper = new Float64Array(numRows).fill(1);
  if (request.optionalRows) for (let r = 0; r < rowCount; r++) if (request.optionalRows[r]) rowLower[r] = 0;
  request.groupLimits.forEach((limit, g) => {
    rowLower[rowCount + g] = 0;
    rowUpper[rowCount + g] = limit;
  });
  try {
    const model = highs.createModel({
      numCols,
      numRows,
      colCost,
      colLower: new Float64Array(numCols),
      colUpper: new Float64Array(numCols).fill(1),
      rowLower,
      rowUpper,
      matrix: { format: "csc", numRows, numCols, starts, indices, values },
      integrality: new Int32Array(numCols).fill(highs.constants.variableType.integer),
    });
    try {
      model.options.set({ output_flag: false, time_limit: Math.max(0.05, request.timeLimitSeconds), mip_rel_gap: 1e-6 });
      if (request.start.length > 0) {
        const colValue = new Float64Array(numCols);
        for (const j of request.start) colValue[j] = 1;
        model.setSolution({ colValue });
      }
      const stop = request.shouldStop;
      const poll = (event: { interrupt(): void }) => {
        if (stop?.()) event.interrupt();
        return undefined;
      };
      model.run(
        stop ? { [highs.constants.callbackType.simplexInterrupt]: poll, [highs.constants.callbackType.mipInterrupt]: poll } : undefined,
      );
      const status = model.getModelStatus();
      const s = highs.constants.modelStatus;
      if (status !== s.optimal && status !== s.timeLimit) return null;
      const value = model.getSolution().colValue;
      const chosen: number[] = [];
      for (let j = 0; j < numCols; j++) if (value[j]! > 0.5) chosen.push(j);
      return chosen.length > 0 ? chosen : null;
    } finally {
      model.dispose();
    }
  } catch {
    disableHighs();
    return null;
  }
}
