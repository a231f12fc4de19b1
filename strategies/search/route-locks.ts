import type { LockedStops } from "../core/problem.js";
import type { Pieces } from "./pieces.js";

/**
 * Locked stops (vehicle_locked_stops) as a rule of the route model, beside the order rules
 * (route-order.ts): route v begins with its locked stops in their order, and no other route holds
 * one. Routes (routes.ts) refuse a candidate that breaks it, in O(pieces): a route that keeps the
 * rule ("intact") holds its locked stops at positions 1..k exactly, so a piece of it keeps them
 * only on the same vehicle at the same positions, and a piece without them only after the head.
 */
export class RouteLocks {
  /** 1 when route r holds exactly its locked stops at positions 1..k (and no other route's). */
  readonly intact: Uint8Array;

  constructor(
    readonly locks: LockedStops,
    routes: number,
  ) {
    this.intact = new Uint8Array(routes);
  }

  /** Locked stops at the head of route r. */
  count(r: number): number {
    return this.locks.stops[r]?.length ?? 0;
  }

  /** Route r now serves seq[1..length]: records whether it keeps the rule, and returns that. */
  setRoute(r: number, seq: ArrayLike<number>, length: number): boolean {
    const head = this.locks.stops[r]!;
    let ok = length >= head.length;
    for (let k = 0; ok && k < head.length; k++) ok = seq[k + 1] === head[k];
    const vehicle = this.locks.vehicle;
    for (let k = head.length + 1; ok && k <= length; k++) ok = vehicle[seq[k]!]! < 0;
    this.intact[r] = ok ? 1 : 0;
    return ok;
  }

  /** Whether vehicle v driving `pieces` (of intact routes, or loose customers) keeps the rule. */
  keeps(v: number, pieces: Pieces): boolean {
    const k = this.count(v);
    const vehicle = this.locks.vehicle;
    // t: the candidate position of the next visit.
    let t = 1;
    for (let i = 0; i < pieces.count; i++) {
      const r = pieces.route[i]!;
      const from = pieces.from[i]!;
      const to = pieces.to[i]!;
      if (r < 0) {
        const owner = vehicle[from]!;
        if (owner >= 0 ? owner !== v || this.locks.position[from] !== t : t <= k) return false;
        t++;
        continue;
      }
      const head = this.count(r);
      if (!this.intact[r]) return false;
      if (from <= head) {
        // Locked stops of route r: only on r itself, at their own positions, in their order.
        if (r !== v || from !== t || (pieces.reversed[i] && to > from)) return false;
      } else if (t <= k) return false;
      t += to - from + 1;
    }
    return t > k;
  }
}
