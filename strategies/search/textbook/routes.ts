import type { CostEvaluator } from "../cost-evaluator.js";
import type { Penalties } from "../penalties.js";
import type { Pieces } from "../pieces.js";
import { Routes } from "../routes.js";
import type { ProblemData } from "../problem-data.js";
import { PromisingCustomers } from "./promising.js";

/**
 * The textbook local search's view of the route model (routes.ts): its moves read the model's
 * arrays through `rs` and price from totals in O(1) through the model's cost evaluator, with the
 * model's time segments for binding windows. It adds what only
 * the textbook methods use: scratch buffers, the promising customers of the localised search and
 * the commit hook of the property tests. The modification clock is never reset, so that what
 * was examined or cached under it stays comparable across runs.
 */
export class TextbookRoutes {
  /** The route model whose arrays the moves read and write: this view keeps no copies of them. */
  readonly rs: Routes;
  /** The route model's prices. */
  readonly costs: CostEvaluator;
  readonly scratch: Int32Array;
  readonly scratch2: Int32Array;
  /** Told of every rewritten route, for the localised search. */
  protected readonly promising: PromisingCustomers;
  /**
   * Test hook: called after every applied move with the penalised cost the move was priced at
   * and the routes it rewrote (rb = -1 for a move within one route).
   */
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null = null;

  constructor(readonly m: ProblemData) {
    this.rs = new Routes(m);
    this.costs = this.rs.costs;
    const slots = m.customers.length + 2;
    this.scratch = new Int32Array(slots);
    this.scratch2 = new Int32Array(slots);
    this.promising = new PromisingCustomers(m);
  }

  /** The route model (for SWAP*, moves/swap-star.ts). */
  get model(): Routes {
    return this.rs;
  }

  get clock(): number {
    return this.rs.clock;
  }

  get penalties(): Penalties {
    return this.rs.penalties;
  }

  set penalties(pen: Penalties) {
    this.rs.penalties = pen;
  }

  /** Loads routes (customers only, one list per vehicle, missing lists empty); customers on none are unrouted. */
  loadRoutes(routes: readonly (readonly number[])[]): void {
    // Optional customers may be on no route: forget every place first (setRoute keeps old ones).
    if (this.m.skipPrice) this.rs.routeOf.fill(-1);
    for (let r = 0; r < this.m.routes; r++) {
      const route = routes[r] ?? [];
      const buf = this.scratch;
      for (let k = 0; k < route.length; k++) buf[k] = route[k]!;
      this.setRoute(r, buf, route.length);
    }
  }

  routes(): number[][] {
    const out: number[][] = [];
    for (let r = 0; r < this.m.routes; r++) out.push(Array.from(this.rs.seq[r]!.subarray(1, this.rs.length[r]! + 1)));
    return out;
  }

  /** Penalised cost of the routes plus the skip price of every customer on none (optional customers). */
  totalCost(): number {
    let total = 0;
    for (let r = 0; r < this.m.routes; r++) total += this.rs.cost[r]!;
    return this.m.skipPrice ? total + this.skippedCost() : total;
  }

  /** Sum of the skip prices of the customers on no route (0 when every customer must be served). */
  skippedCost(): number {
    const skip = this.m.skipPrice;
    if (!skip) return 0;
    let total = 0;
    for (const c of this.m.customers) if (this.rs.routeOf[c]! < 0) total += skip[c]!;
    return total;
  }

  loadOf(r: number): number {
    return this.rs.load[r]![this.rs.length[r]! + 1]!;
  }

  /** Whether route r carries more than its capacity: its delivered total, or with pickups (backhaul-model.ts) its peak on board. */
  overloaded(r: number): boolean {
    if (this.rs.loads) return this.rs.loadExcess[r]! > 1e-9;
    return this.rs.load[r]![this.rs.length[r]! + 1]! > this.m.capacity[r]! + 1e-9;
  }

  distanceOf(r: number): number {
    return this.rs.fwd[r]![this.rs.length[r]! + 1]!;
  }

  /** Route duration: additive (driving + service), or under windows the segment's (waiting included). */
  durationOf(r: number): number {
    return this.rs.duration[r]!;
  }

  /** Time warp of route r (0 without windows). */
  timeWarpOf(r: number): number {
    return this.rs.timeWarp[r]!;
  }

  /**
   * Clock of the last re-pricing (optional customers only): what was examined at or before it
   * was examined at other prices. Without optional customers it stays -1 and the clock is not
   * moved, so those searches run exactly as before.
   */
  repricedAt = -1;

  /** Re-prices every route after the penalties changed. */
  reprice(): void {
    this.rs.reprice();
    if (this.m.skipPrice) this.repricedAt = ++this.rs.clock;
  }

  /** Time penalty of route r's vehicle driving a customer list (depots added), from scratch. */
  listTime(r: number, customers: Int32Array, count: number): number {
    return this.rs.listTimePrice(r, customers, count);
  }

  setRoute(r: number, customers: Int32Array, count: number): void {
    // The textbook methods re-place every customer they take out (moves, SWAP*) or mark it
    // unrouted themselves (the ruin), so the model need not forget the route's old customers.
    this.rs.setRoute(r, customers, count, false);
    this.promising.touch(r);
  }

  /** Marks route r as rewritten (unchanged), so that a localised search examines it again (e.g. after its prices rose). */
  markChanged(r: number): void {
    this.rs.modifiedAt[r] = ++this.rs.clock;
    this.promising.touch(r);
  }

  /** Writes the customers of `pieces` (positions 1..length of current routes) into `out`; returns their count. */
  write(pieces: Pieces, out: Int32Array): number {
    return this.rs.write(pieces, out);
  }
}
