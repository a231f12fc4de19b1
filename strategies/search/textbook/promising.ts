import type { HgsModel } from "../textbook-model.js";

/**
 * Which customers a localised local-search pass must look at (PyVRP's promising nodes). Two
 * granularities:
 * - by route (the default): the customers of every route rewritten since the last collection,
 *   and every customer that has one of them among its granular neighbours (its moves towards
 *   that route may have become improving). The local search reports each rewritten route (touch).
 * - by customer (`byCustomer`, as PyVRP 0.14's ILS; backhauls, textbook-ils.ts): only the
 *   customers whose own route neighbours changed (`mark`, from each rewritten route: routes.ts),
 *   kept for the whole localised search (so a customer once promising is examined again in later
 *   passes when a route near it changed); a route touched as a whole (`touch(r, true)`, e.g.
 *   after its prices rose) still counts all its customers. On long routes the route-wide set is
 *   much of the instance: on X-n573-50-k22 (26 customers a route) about 210 of 572 customers a
 *   pass, to find the few moves a ruin of about 10 customers opens.
 */
export class PromisingCustomers {
  /** For each customer, the customers that list it as a granular neighbour. */
  private readonly reverse: Int32Array[];
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private readonly routeFlag: Uint8Array;
  private readonly customerStamp: Int32Array;
  private stamp = 0;
  /** By customer: the customers marked since the last reset (stamped with `stamp`). */
  private readonly marked: Int32Array;
  private markedCount = 0;
  /** Set before the search starts (textbook-ils.ts); false keeps the route-wide set. */
  byCustomer = false;
  /** By route, but reset() forgets the touched routes. */
  forgetful = false;

  constructor(m: HgsModel) {
    const lists: number[][] = Array.from({ length: m.nodeCount }, () => []);
    for (const u of m.customers) for (const v of m.neighbours[u]!) lists[v]!.push(u);
    this.reverse = lists.map((l) => Int32Array.from(l));
    this.touched = new Int32Array(m.vehicles);
    this.routeFlag = new Uint8Array(m.vehicles);
    this.customerStamp = new Int32Array(m.nodeCount);
    this.marked = new Int32Array(m.nodeCount);
  }

  /** Route r was rewritten; `whole`: all its customers are promising even by customer. */
  touch(r: number, whole = false): void {
    if (this.byCustomer && !whole) return;
    if (this.routeFlag[r]) return;
    this.routeFlag[r] = 1;
    this.touched[this.touchedCount++] = r;
  }

  /** By customer: customer c (not a depot) is promising until the next reset. */
  mark(c: number): void {
    if (!this.byCustomer || this.customerStamp[c] === this.stamp + 1) return;
    this.customerStamp[c] = this.stamp + 1;
    this.marked[this.markedCount++] = c;
    if (!this.withUsers) return;
    const users = this.reverse[c]!;
    for (let i = 0; i < users.length; i++) {
      const u = users[i]!;
      if (this.customerStamp[u] === this.stamp + 1) continue;
      this.customerStamp[u] = this.stamp + 1;
      this.marked[this.markedCount++] = u;
    }
  }
  private readonly withUsers = process.env.VRPBS_REV === "1";

  /** By customer: whether c is marked (false by route). */
  isMarked(c: number): boolean {
    return this.byCustomer && this.customerStamp[c] === this.stamp + 1;
  }

  /** By customer: forgets every mark and wholly touched route (the end of a localised search). */
  reset(): void {
    if (this.forgetful) {
      for (let t = 0; t < this.touchedCount; t++) this.routeFlag[this.touched[t]!] = 0;
      this.touchedCount = 0;
      return;
    }
    if (!this.byCustomer) return;
    this.stamp++;
    this.markedCount = 0;
    for (let t = 0; t < this.touchedCount; t++) this.routeFlag[this.touched[t]!] = 0;
    this.touchedCount = 0;
  }

  /** Writes the promising customers into `out` (from the routes touched since the last call); returns their count. */
  collect(seq: readonly Int32Array[], length: Int32Array, out: Int32Array): number {
    if (this.byCustomer) return this.collectMarked(seq, length, out);
    const stamp = ++this.stamp;
    const mark = this.customerStamp;
    let count = 0;
    for (let t = 0; t < this.touchedCount; t++) {
      const r = this.touched[t]!;
      this.routeFlag[r] = 0;
      const route = seq[r]!;
      for (let k = 1; k <= length[r]!; k++) {
        const w = route[k]!;
        if (mark[w] !== stamp) {
          mark[w] = stamp;
          out[count++] = w;
        }
        const users = this.reverse[w]!;
        for (let i = 0; i < users.length; i++) {
          const u = users[i]!;
          if (mark[u] !== stamp) {
            mark[u] = stamp;
            out[count++] = u;
          }
        }
      }
    }
    this.touchedCount = 0;
    return count;
  }

  /** By customer: the customers of wholly touched routes join the marks; every mark so far is written to `out`. */
  private collectMarked(seq: readonly Int32Array[], length: Int32Array, out: Int32Array): number {
    for (let t = 0; t < this.touchedCount; t++) {
      const r = this.touched[t]!;
      this.routeFlag[r] = 0;
      const route = seq[r]!;
      for (let k = 1; k <= length[r]!; k++) this.mark(route[k]!);
    }
    this.touchedCount = 0;
    out.set(this.marked.subarray(0, this.markedCount));
    return this.markedCount;
  }
}
