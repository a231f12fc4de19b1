/**
 * A candidate route described without building it: at most eight pieces, each the positions
 * from..to (inclusive) of a current route, possibly reversed, or one loose customer (route = -1,
 * from = the node). Positions are the customers' (1..length of the route model, routes.ts) and
 * the vehicle's start and end nodes are added by whoever prices it, so a piece can move between
 * routes of different depots or vehicle types.
 */
export class Pieces {
  readonly route = new Int32Array(8);
  readonly from = new Int32Array(8);
  readonly to = new Int32Array(8);
  readonly reversed = new Uint8Array(8);
  count = 0;
  /** Customers in all pieces. */
  size = 0;

  reset(): this {
    this.count = 0;
    this.size = 0;
    return this;
  }

  /** Positions from..to of route `route` (skipped when empty). */
  add(route: number, from: number, to: number, reversed = false): this {
    if (from > to) return this;
    const k = this.count++;
    this.route[k] = route;
    this.from[k] = from;
    this.to[k] = to;
    this.reversed[k] = reversed ? 1 : 0;
    this.size += to - from + 1;
    return this;
  }

  /** One customer that is on no route (yet). */
  node(node: number): this {
    const k = this.count++;
    this.route[k] = -1;
    this.from[k] = node;
    this.to[k] = node;
    this.reversed[k] = 0;
    this.size += 1;
    return this;
  }
}
