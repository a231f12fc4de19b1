import { rulePrice } from "./cost-evaluator.js";
import type { ProblemData } from "./problem-data.js";
import type { FleetRules } from "./fleet-rules.js";
import type { Penalties } from "./penalties.js";
import type { Pieces } from "./pieces.js";

/** Above this many skill profiles the per-profile prefix counts would cost too much memory: pieces are scanned instead. */
const MAX_PREFIX_PROFILES = 16;

/**
 * The rules part of the route model (routes.ts) for problems with rules (fleet-rules.ts):
 * - skills, a hard check: per route and skill profile, prefix counts of the customers that
 *   profile may not serve, so whether a candidate (pieces of current routes on a vehicle) holds
 *   a forbidden customer is O(pieces); such a candidate costs Infinity, so no move or insertion
 *   ever puts a customer on a vehicle without its skills;
 * - the distance cap: excess distance, priced per unit like excess load (adaptive, scale-free);
 * - the stops cap: customers above it, priced per customer the same way.
 * Shifts and per-vehicle working hours are in the time segments (route-times.ts).
 */
export class RouteRules {
  readonly fr: FleetRules;
  /** forbid[r][p * slots + k]: customers at positions 1..k of route r that profile p may not serve. */
  private readonly forbid: Int32Array[] | null;
  private readonly slots: number;

  constructor(readonly m: ProblemData) {
    this.fr = m.rules!;
    this.slots = m.customers.length + 2;
    const profiles = this.fr.profileVehicle.length;
    this.forbid =
      this.fr.allowed && profiles <= MAX_PREFIX_PROFILES
        ? Array.from({ length: m.routes }, () => new Int32Array(profiles * this.slots))
        : null;
  }

  private allowedFor(v: number, node: number): boolean {
    const allowed = this.fr.allowed;
    return !allowed || allowed[v * this.m.nodeCount + node] === 1;
  }

  /** Whether vehicle v may serve customer c: one look-up, for moves to skip a candidate before pricing it. */
  serves(v: number, c: number): boolean {
    return this.allowedFor(v, c);
  }

  /** Recomputes route r's prefix counts (customers seq[1..count]); returns how many its own vehicle may not serve. */
  set(r: number, seq: Int32Array, count: number): number {
    const fr = this.fr;
    if (!fr.allowed) return 0;
    const forbid = this.forbid?.[r];
    const n = this.m.nodeCount;
    if (forbid) {
      for (let p = 0; p < fr.profileVehicle.length; p++) {
        const row = fr.profileVehicle[p]! * n;
        const base = p * this.slots;
        forbid[base] = 0;
        for (let k = 1; k <= count; k++) forbid[base + k] = forbid[base + k - 1]! + (fr.allowed[row + seq[k]!] === 1 ? 0 : 1);
      }
      return forbid[fr.profileOf[r]! * this.slots + count]!;
    }
    let bad = 0;
    for (let k = 1; k <= count; k++) if (!this.allowedFor(r, seq[k]!)) bad++;
    return bad;
  }

  /**
   * Whether vehicle v may serve the customers at positions from..to of route r (O(1) from the
   * prefix counts). Vehicles of r's own profile always may: a route only ever holds customers its
   * vehicle may serve (any other candidate costs Infinity and is never applied).
   */
  servesRange(v: number, r: number, from: number, to: number, seq: Int32Array): boolean {
    const fr = this.fr;
    if (!fr.allowed || from > to || fr.profileOf[v] === fr.profileOf[r]) return true;
    const forbid = this.forbid?.[r];
    if (forbid) {
      const base = fr.profileOf[v]! * this.slots;
      return forbid[base + to]! - forbid[base + from - 1]! === 0;
    }
    for (let t = from; t <= to; t++) if (!this.allowedFor(v, seq[t]!)) return false;
    return true;
  }

  /** Whether vehicle v may serve every customer of `pieces`. */
  allows(v: number, pieces: Pieces, seqs: readonly Int32Array[]): boolean {
    const fr = this.fr;
    if (!fr.allowed) return true;
    const profile = fr.profileOf[v]!;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const from = pieces.from[k]!;
      const to = pieces.to[k]!;
      if (r < 0) {
        if (!this.allowedFor(v, from)) return false;
        continue;
      }
      const forbid = this.forbid?.[r];
      if (forbid) {
        const base = profile * this.slots;
        if (forbid[base + to]! - forbid[base + from - 1]! > 0) return false;
        continue;
      }
      const seq = seqs[r]!;
      for (let t = from; t <= to; t++) if (!this.allowedFor(v, seq[t]!)) return false;
    }
    return true;
  }

  /** Distance above vehicle v's cap. */
  distanceExcess(v: number, distance: number): number {
    const cap = this.fr.maxDistance[v]!;
    return distance > cap ? distance - cap : 0;
  }

  /** Customers above vehicle v's stop cap. */
  stopsExcess(v: number, count: number): number {
    const cap = this.fr.maxStops[v]!;
    return count > cap ? count - cap : 0;
  }

  /**
   * The caps' share of the price of vehicle v driving `pieces` of `distance`; skills are checked
   * apart (allows), before the distance is summed, since most refused candidates fail on them.
   */
  capPrice(v: number, pieces: Pieces, distance: number, pen: Penalties): number {
    return rulePrice(pen, this.distanceExcess(v, distance), this.stopsExcess(v, pieces.size));
  }
}
