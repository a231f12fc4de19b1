import type { ProblemData } from "../problem-data.js";

/**
 * Which customers a localised local-search pass must look at (PyVRP's promising nodes): those of
 * every route rewritten since the last collection, and every customer that has one of them
 * among its granular neighbours (its moves towards that route may have become improving). The
 * local search reports each rewritten route (touch); a localised pass collects the customers.
 */
export class PromisingCustomers {
  /** For each customer, the customers that list it as a granular neighbour. */
  private readonly reverse: Int32Array[];
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private readonly routeFlag: Uint8Array;
  private readonly customerStamp: Int32Array;
  private stamp = 0;

  constructor(m: ProblemData) {
    const lists: number[][] = Array.from({ length: m.nodeCount }, () => []);
    for (const u of m.customers) for (const v of m.neighbours[u]!) lists[v]!.push(u);
    this.reverse = lists.map((l) => Int32Array.from(l));
    this.touched = new Int32Array(m.routes);
    this.routeFlag = new Uint8Array(m.routes);
    this.customerStamp = new Int32Array(m.nodeCount);
  }

  touch(r: number): void {
    if (this.routeFlag[r]) return;
    this.routeFlag[r] = 1;
    this.touched[this.touchedCount++] = r;
  }

  /** Writes the promising customers into `out` (from the routes touched since the last call); returns their count. */
  collect(seq: readonly Int32Array[], length: Int32Array, out: Int32Array): number {
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
}
