import { Pieces } from "../pieces.js";
import type { Routes } from "../routes.js";

const whole = new Pieces();

/**
 * The base price (candidate-prices.ts basePrice: fixed + unit x distance, load, rule caps) of each
 * route's customers on a vehicle of each type, kept while the route is unchanged, at one set of
 * penalties (its owner forgets it when they change). Vehicles of one type agree on everything that
 * price reads (problem-data.ts: capacity, costs, speed, ends, rules, matrix), so a route's swap with
 * every used route of a type and its move to that type's free vehicle share one price, instead of
 * one walk per pair. Not for stores whose vehicles differ within a type (locked stops, reloads, a
 * reassignment cost): `appliesTo` says so.
 */
export class TypePrices {
  private readonly price: Float64Array;
  /** The route's modification time when its price on the type was taken (-1: none). */
  private readonly pricedAt: Float64Array;
  private readonly types: number;

  constructor(routes: number, types: number) {
    this.types = types;
    this.price = new Float64Array(routes * types);
    this.pricedAt = new Float64Array(routes * types).fill(-1);
  }

  /** Whether every vehicle of a type prices the same customers alike in `rs`. */
  static appliesTo(rs: Routes): boolean {
    return rs.locks === null && rs.trips === null && rs.reassignment === null;
  }

  forget(): void {
    this.pricedAt.fill(-1);
  }

  /** basePrice of route r's customers on vehicle v (of type typeOf[v]), from memory when r is unchanged since. */
  of(rs: Routes, r: number, v: number): number {
    const k = r * this.types + rs.m.typeOf[v]!;
    const at = rs.modifiedAt[r]!;
    if (this.pricedAt[k] === at) return this.price[k]!;
    const price = rs.candidates.basePrice(v, whole.reset().add(r, 1, rs.length[r]!));
    this.price[k] = price;
    this.pricedAt[k] = at;
    return price;
  }
}
