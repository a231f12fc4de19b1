import type { Reassignment } from "../core/problem.js";
import type { Pieces } from "./pieces.js";

/**
 * The reassignment cost (reassignment_cost) as a property of a visit in the route model: a stop
 * whose vehicle in the given plan is not the route's costs the price. Per route, the positions
 * of its stops that are away from their home vehicle (few: the price keeps them few), so a
 * candidate's count is O(pieces + away stops in them): a piece that stays on its route keeps
 * its away stops; on another vehicle every stop with a home is away except those homed there,
 * and those are among the piece's away stops.
 */
export class RouteReassignment {
  /** homed[r][k]: stops at positions 1..k of route r that have a home vehicle. */
  private readonly homed: Int32Array[];
  /** away[r][0..awayCount[r]): positions (ascending) of route r's stops homed on another vehicle, and those homes. */
  private readonly away: Int32Array[];
  private readonly awayHome: Int32Array[];
  private readonly awayCount: Int32Array;
  /** Each route's current reassignment price. */
  readonly routePrice: Float64Array;

  constructor(
    readonly r: Reassignment,
    routes: number,
    slots: number,
  ) {
    this.homed = Array.from({ length: routes }, () => new Int32Array(slots));
    this.away = Array.from({ length: routes }, () => new Int32Array(slots));
    this.awayHome = Array.from({ length: routes }, () => new Int32Array(slots));
    this.awayCount = new Int32Array(routes);
    this.routePrice = new Float64Array(routes);
  }

  /** The change of price when `node` leaves route `from` for route `to` (for moves priced from totals). */
  moveDelta(node: number, from: number, to: number): number {
    const h = this.r.home[node]!;
    if (h < 0) return 0;
    return this.r.price * ((h !== to ? 1 : 0) - (h !== from ? 1 : 0));
  }

  /** Route r now serves seq[1..length]: returns its price. */
  setRoute(route: number, seq: ArrayLike<number>, length: number): number {
    const home = this.r.home;
    const homed = this.homed[route]!;
    const away = this.away[route]!;
    const awayHome = this.awayHome[route]!;
    let count = 0;
    for (let k = 1; k <= length; k++) {
      const h = home[seq[k]!]!;
      homed[k] = homed[k - 1]! + (h >= 0 ? 1 : 0);
      if (h >= 0 && h !== route) {
        away[count] = k;
        awayHome[count++] = h;
      }
    }
    this.awayCount[route] = count;
    return (this.routePrice[route] = this.r.price * count);
  }

  /**
   * A new price per away stop (the default price's adaptation, ils/moves-price.ts): each route's
   * price and its `objective` change with it.
   */
  setPrice(price: number, objective: Float64Array): void {
    this.r.price = price;
    for (let route = 0; route < this.routePrice.length; route++) {
      const next = price * this.awayCount[route]!;
      objective[route] = objective[route]! + next - this.routePrice[route]!;
      this.routePrice[route] = next;
    }
  }

  /** How many stops of all routes are away from their home vehicle. */
  awayTotal(): number {
    let total = 0;
    for (let r = 0; r < this.awayCount.length; r++) total += this.awayCount[r]!;
    return total;
  }

  /** The home vehicles of route r's stops that are away from home (one entry per stop, in route order). */
  awayHomes(route: number): Int32Array {
    return this.awayHome[route]!.subarray(0, this.awayCount[route]!);
  }

  /** The price of vehicle v serving the customers of `pieces`. */
  price(v: number, pieces: Pieces): number {
    const home = this.r.home;
    let count = 0;
    for (let i = 0; i < pieces.count; i++) {
      const route = pieces.route[i]!;
      const from = pieces.from[i]!;
      const to = pieces.to[i]!;
      if (route < 0) {
        const h = home[from]!;
        if (h >= 0 && h !== v) count++;
        continue;
      }
      const away = this.away[route]!;
      const awayHome = this.awayHome[route]!;
      const n = this.awayCount[route]!;
      let awayIn = 0;
      let homedOnV = 0;
      for (let k = 0; k < n; k++) {
        const position = away[k]!;
        if (position < from) continue;
        if (position > to) break;
        awayIn++;
        if (awayHome[k] === v) homedOnV++;
      }
      count += v === route ? awayIn : this.homed[route]![to]! - this.homed[route]![from - 1]! - homedOnV;
    }
    return this.r.price * count;
  }
}
