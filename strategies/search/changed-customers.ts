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
    for (let k = 1; k <= count; k++) if (this.neighboursChanged(seq[k]!, seq[k - 1]!, seq[k + 1]!)) this.changedAt[seq[k]!] = clock;
  }

  /** Customer c now lies between a and b: whether that changed its route neighbours (either order is the same), recording it. */
  neighboursChanged(c: number, a: number, b: number): boolean {
    const p = this.before[c]!;
    const n = this.after[c]!;
    if ((p === a && n === b) || (p === b && n === a)) return false;
    this.before[c] = a;
    this.after[c] = b;
    return true;
  }

  /** Marks customer c as changed at `clock` (e.g. its route's prices changed). */
  touch(c: number, clock: number): void {
    this.changedAt[c] = clock;
  }
}
