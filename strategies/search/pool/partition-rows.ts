import type { ProblemData } from "../problem-data.js";
import type { PooledRoute } from "./route-pool.js";

/**
 * The customers as rows of set partitioning (set-partition.ts), priced as the search's objective
 * prices a solution (ils/per-vehicle-parts.ts, PerVehicleBest): the routes' prices plus the skip prices of the
 * customers left out (fleet-rules.ts skipPrice). A customer with a finite skip price (optional, or
 * required when unassigned ones are allowed) is an optional row, and a column serving it costs
 * that much less: the partition's total plus the sum of all finite skip prices is then exactly
 * the objective. Without rules every row is required and a column costs its route's price.
 */
export class PartitionRows {
  /** Row of each node (-1 for depots). */
  readonly rowOf: Int32Array;
  /** Per row, 1 when the customer may stay unserved; undefined when none may. */
  readonly optionalRows: Uint8Array | undefined;
  private readonly skipPrice: Float64Array | null;

  constructor(private readonly m: ProblemData) {
    this.rowOf = new Int32Array(m.nodeCount).fill(-1);
    m.customers.forEach((c, row) => (this.rowOf[c] = row));
    const rules = m.rules;
    this.skipPrice = rules?.anyOptional ? rules.skipPrice : null;
    const skip = this.skipPrice;
    this.optionalRows = skip ? Uint8Array.from(m.customers, (c) => (Number.isFinite(skip[c]!) ? 1 : 0)) : undefined;
  }

  get count(): number {
    return this.m.customers.length;
  }

  /** The rows of a route's customers. */
  rows(customers: Int32Array): Int32Array {
    return customers.map((c) => this.rowOf[c]!);
  }

  /** A route's column cost: its price less the finite skip prices of the customers it serves. */
  columnCost(route: PooledRoute): number {
    const skip = this.skipPrice;
    if (!skip) return route.cost;
    let cost = route.cost;
    for (const c of route.customers) if (Number.isFinite(skip[c]!)) cost -= skip[c]!;
    return cost;
  }

  /**
   * The objective of a plan made of `routes`: their prices plus the skip prices of the customers
   * none serves; null when one is served twice or a required one not at all (a guard on the
   * solver's answer).
   */
  planCost(routes: readonly PooledRoute[]): number | null {
    const served = new Uint8Array(this.m.nodeCount);
    let cost = 0;
    for (const route of routes) {
      cost += route.cost;
      for (const c of route.customers) {
        if (served[c]) return null;
        served[c] = 1;
      }
    }
    for (const c of this.m.customers) {
      if (served[c]) continue;
      const price = this.skipPrice?.[c] ?? Number.POSITIVE_INFINITY;
      if (!Number.isFinite(price)) return null;
      cost += price;
    }
    return cost;
  }
}
