import type { ChangedCustomers } from "./changed-customers.js";
import type { RouteWriter } from "./operators/operator.js";
import type { ProblemData } from "./problem-data.js";
import type { Routes } from "./routes.js";

/**
 * Which customers a localised local-search pass must look at (PyVRP's promising nodes): those of
 * every route rewritten since the last collection, and every customer that has one of them
 * among its granular neighbours (its moves towards that route may have become improving). Every
 * route the search rewrites goes through `setRoute` here (or is reported by touch); a localised
 * pass collects the customers. With `changedOnly` (long routes under binding windows), a route
 * rewritten gives only its customers whose route neighbours changed (the route model's change
 * record, changed-customers.ts), as PyVRP's perturbation and moves mark them: a ruin or a move
 * changes a few places of routes of 25 to 100 customers, and their whole neighbourhoods were
 * most of the customers each time.
 */
export class PromisingCustomers implements RouteWriter {
  /** For each customer, the customers that list it as a granular neighbour. */
  private readonly reverse: Int32Array[];
  private readonly touched: Int32Array;
  private touchedCount = 0;
  private readonly routeFlag: Uint8Array;
  private readonly customerStamp: Int32Array;
  private stamp = 0;
  /** changedOnly: the route model's change record, listing the customers changed since the last collection (null otherwise). */
  private readonly changes: ChangedCustomers | null;

  /**
   * `unservedNearChanged` (changedOnly with optional customers): an unserved customer that lists a
   * changed customer as a granular neighbour is promising too, since its insertion next to that
   * neighbour is priced anew; without it a localised run could take optional customers out but
   * never put one back.
   */
  constructor(
    m: ProblemData,
    private readonly rs: Routes,
    changedOnly = false,
    private readonly unservedNearChanged = false,
  ) {
    this.changes = changedOnly ? rs.trackChanges() : null;
    this.changes?.listChanged();
    const lists: number[][] = Array.from({ length: m.nodeCount }, () => []);
    for (const u of m.customers) for (const v of m.neighbours[u]!) lists[v]!.push(u);
    this.reverse = lists.map((l) => Int32Array.from(l));
    this.touched = new Int32Array(m.routes);
    this.routeFlag = new Uint8Array(m.routes);
    this.customerStamp = new Int32Array(m.nodeCount);
  }

  /**
   * Rewrites route r in the route store and records it. The search's moves re-place every
   * customer they take out, and its ruin marks the others unrouted, so the store need not forget
   * the route's old customers.
   */
  setRoute(r: number, customers: Int32Array, count: number): void {
    // With changedOnly the route model records the changed customers itself.
    this.rs.setRoute(r, customers, count, false);
    if (this.changes === null) this.touch(r);
  }

  touch(r: number): void {
    if (this.routeFlag[r]) return;
    this.routeFlag[r] = 1;
    this.touched[this.touchedCount++] = r;
  }

  /**
   * Writes the promising customers into `out` (from the routes touched since the last call);
   * returns their count. `nearby` false: the touched routes' own customers only, not those that
   * list one of them as a neighbour.
   */
  collect(seq: readonly Int32Array[], length: Int32Array, out: Int32Array, nearby = true): number {
    const stamp = ++this.stamp;
    const mark = this.customerStamp;
    let count = 0;
    const routeOf = this.rs.routeOf;
    this.changes?.takeListed((w) => {
      // A changed customer a later ruin took out is on no route: nothing to examine.
      if (routeOf[w]! < 0) return;
      if (mark[w] !== stamp) {
        mark[w] = stamp;
        out[count++] = w;
      }
      if (!this.unservedNearChanged) return;
      const users = this.reverse[w]!;
      for (let i = 0; i < users.length; i++) {
        const u = users[i]!;
        if (mark[u] !== stamp && routeOf[u]! < 0) {
          mark[u] = stamp;
          out[count++] = u;
        }
      }
    });
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
        if (!nearby) continue;
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
