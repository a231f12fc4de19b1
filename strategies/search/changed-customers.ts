/**
 * Which customers changed neighbours in their route, and when (the route model's clock): the
 * general search's "promising" customers (PyVRP's promising clients). After a ruin and recreate
 * only the customers around the removal and insertion points changed; a localised education
 * examines those (and those its own moves touch) instead of every customer of every rewritten
 * route, which on long routes (a few vehicles of 40+ stops) is most of the customers each time.
 * Neighbours count unordered: a reversed stretch (2-opt) changes only its two ends.
 */
export class ChangedCustomers {
  private readonly before: Int32Array;
  private readonly after: Int32Array;
  /** Clock value at which each customer's route neighbours last changed (0: never). */
  readonly changedAt: Float64Array;

  constructor(nodeCount: number) {
    this.before = new Int32Array(nodeCount).fill(-1);
    this.after = new Int32Array(nodeCount).fill(-1);
    this.changedAt = new Float64Array(nodeCount);
  }

  /** Route sequence `seq` (depots at 0 and count + 1) was just written at `clock`. */
  record(seq: Int32Array, count: number, clock: number): void {
    const before = this.before;
    const after = this.after;
    for (let k = 1; k <= count; k++) {
      const c = seq[k]!;
      const a = seq[k - 1]!;
      const b = seq[k + 1]!;
      const p = before[c]!;
      const n = after[c]!;
      if ((p === a && n === b) || (p === b && n === a)) continue;
      before[c] = a;
      after[c] = b;
      this.changedAt[c] = clock;
    }
  }

  /** Marks customer c as changed at `clock` (e.g. its route's prices changed). */
  touch(c: number, clock: number): void {
    this.changedAt[c] = clock;
  }
}
