/**
 * Which customers changed neighbours in their route, and when (the route model's clock): the
 * general search's "promising" customers (PyVRP's promising clients). After a ruin and recreate
 * only the customers around the removal and insertion points changed; a localised education
 * examines those (and those its own moves touch) instead of every customer of every rewritten
 * route, which on long routes (a few vehicles of 40+ stops) is most of the customers each time.
 * Neighbours count unordered: a reversed stretch (2-opt) changes only its two ends. A reader that
 * wants the changed customers as a list rather than by clock (promising-customers.ts) asks for
 * one (`listChanged`) and takes it (`takeListed`).
 */
export class ChangedCustomers {
  private readonly before: Int32Array;
  private readonly after: Int32Array;
  /** Clock value at which each customer's route neighbours last changed (0: never). */
  readonly changedAt: Float64Array;
  /** With listChanged: the customers changed since the last takeListed, each once, in the order they changed. */
  private listed: Int32Array | null = null;
  private isListed: Uint8Array | null = null;
  private listedCount = 0;

  constructor(nodeCount: number) {
    this.before = new Int32Array(nodeCount).fill(-1);
    this.after = new Int32Array(nodeCount).fill(-1);
    this.changedAt = new Float64Array(nodeCount);
  }

  /** From now on the changed customers are also kept as a list (takeListed). */
  listChanged(): void {
    this.listed ??= new Int32Array(this.changedAt.length);
    this.isListed ??= new Uint8Array(this.changedAt.length);
  }

  /** Route sequence `seq` (depots at 0 and count + 1) was just written at `clock`. */
  record(seq: Int32Array, count: number, clock: number): void {
    const listed = this.listed;
    const isListed = this.isListed;
    for (let k = 1; k <= count; k++) {
      const c = seq[k]!;
      if (!this.neighboursChanged(c, seq[k - 1]!, seq[k + 1]!)) continue;
      this.changedAt[c] = clock;
      if (listed === null || isListed![c]) continue;
      isListed![c] = 1;
      listed[this.listedCount++] = c;
    }
  }

  /** Calls `visit` on every listed customer, in order, and empties the list. */
  takeListed(visit: (c: number) => void): void {
    const listed = this.listed;
    if (listed === null) return;
    for (let t = 0; t < this.listedCount; t++) {
      const c = listed[t]!;
      this.isListed![c] = 0;
      visit(c);
    }
    this.listedCount = 0;
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
