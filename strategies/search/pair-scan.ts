import { LoadSegment } from "./load-segment.js";
import type { Routes } from "./routes.js";
import { TimeSegment } from "./time-segment.js";

/** Most load dimensions priced by the scan (more: the caller prices by pieces). */
const MAX_DIMENSIONS = 8;

/**
 * Exact prices of a shipment's two stops inserted into one route at every pickup position i and
 * delivery position j >= i, in O(1) per (i, j) instead of O(route): for a fixed i the part
 * "start, customers 1..i, pickup, customers i+1..j" grows one customer at a time as j grows
 * (time and load segments concatenate, time-segment.ts / load-segment.ts), and each candidate
 * only adds the delivery and the stored suffix j+1..length (route-times.ts, route-loads.ts).
 * The growing part is also a lower bound of every later j's price (its time warp and peak
 * load only grow by concatenation), so the scan of an i stops when even that part, with the
 * least distance any later j could add, cannot beat the limit.
 *
 * Covers the route model's hard-window case with stored load segments and neither backhauls nor
 * rules (skills, caps); `applies` says when, and the caller prices the other cases by pieces.
 * Prices equal routes.ts's `price` of the same candidate (property-tested).
 */
export class PairScan {
  private readonly grow = new TimeSegment();
  private readonly cand = new TimeSegment();
  private readonly growLoad: LoadSegment[];
  private readonly candLoad = new LoadSegment();
  i = -1;
  j = -1;

  constructor(private readonly rs: Routes) {
    this.growLoad = Array.from({ length: Math.min(rs.m.loads.length, MAX_DIMENSIONS) }, () => new LoadSegment());
  }

  /** Whether `best` prices this route model exactly. */
  applies(): boolean {
    const rs = this.rs;
    const m = rs.m;
    return (
      rs.times !== null &&
      rs.loads !== null &&
      rs.loads.stored &&
      rs.rules === null &&
      rs.visits === null &&
      !m.order?.backhaul &&
      m.loads.length <= MAX_DIMENSIONS
    );
  }

  /** As PairInsertion.best (same order of trial, same ties): the cheapest price below `limit`, else Infinity. */
  best(
    r: number,
    pickup: number,
    delivery: number,
    limit: number,
    iFrom: number,
    iTo: number,
    jFrom = 0,
    jTo = Number.MAX_SAFE_INTEGER,
  ): number {
    // The delivery near a given place (a few j): each j's scan of pickup places runs backwards.
    if (jTo < Number.MAX_SAFE_INTEGER) return this.bestBackward(r, pickup, delivery, limit, iFrom, iTo, jFrom, jTo);
    const rs = this.rs;
    const m = rs.m;
    const times = rs.times!;
    const loads = rs.loads!;
    const n = m.nodeCount;
    const d = rs.slotMatrix[r]!;
    const seq = rs.seq[r]!;
    const len = rs.length[r]!;
    const fixed = m.fixedCost[r]!;
    const unit = m.unitCost[r]!;
    const pen = rs.penalties;
    const cap = m.maxDurationOf![r]!;
    const dims = this.growLoad.length;
    const distance = rs.fwd[r]![len + 1]!;
    const pd = d[pickup * n + delivery]!;
    // The least distance the delivery adds after any position it may take: bounds every later j's distance.
    let leastDetour = Number.POSITIVE_INFINITY;
    for (let j = Math.max(jFrom, iFrom); j <= Math.min(len, jTo); j++) {
      const x = seq[j]!;
      const y = seq[j + 1]!;
      const detour = d[x * n + delivery]! + d[delivery * n + y]! - d[x * n + y]!;
      if (detour < leastDetour) leastDetour = detour;
    }
    let best = Number.POSITIVE_INFINITY;
    this.i = -1;
    this.j = -1;
    // The route's own start and end nodes (routes.ts keeps them at positions 0 and len + 1).
    for (let i = Math.max(0, iFrom); i <= Math.min(len, iTo, jTo); i++) {
      const a = seq[i]!;
      const b = seq[i + 1]!;
      const ab = d[a * n + b]!;
      const intoPickup = d[a * n + pickup]!;
      const dP = intoPickup + d[pickup * n + b]! - ab;
      const direct = intoPickup + pd + d[delivery * n + b]! - ab;
      if (fixed + unit * (distance + Math.min(direct, dP + leastDetour)) >= limit) continue;
      // Start, customers 1..i, pickup.
      const grow = times.appendNode(times.appendHead(times.startInto(this.grow, r), r, seq, i), r, pickup);
      for (let k = 0; k < dims; k++) loads.appendNode(loads.appendHead(this.growLoad[k]!.set(0, 0, 0), k, r, i), k, pickup);
      // j = i: the delivery right after the pickup.
      if (i >= jFrom && fixed + unit * (distance + direct) < limit) {
        const price = this.candidate(
          r,
          seq,
          len,
          delivery,
          i,
          fixed + unit * (distance + direct),
          cap,
          pen.load,
          pen.timeWarp,
          pen.duration,
        );
        if (price < limit) {
          limit = price;
          best = price;
          this.i = i;
          this.j = i;
        }
      }
      for (let j = i + 1; j <= Math.min(len, jTo); j++) {
        const x = seq[j]!;
        times.appendNode(grow, r, x);
        let excess = 0;
        for (let k = 0; k < dims; k++) excess += loads.appendNode(this.growLoad[k]!, k, x).excess(m.loads[k]!.capacity[r]!);
        const floor = fixed + unit * (distance + dP + leastDetour) + pen.timeWarp * grow.timeWarp + pen.load * excess;
        if (floor >= limit) break;
        if (j < jFrom) continue;
        const y = seq[j + 1]!;
        const delta = dP + d[x * n + delivery]! + d[delivery * n + y]! - d[x * n + y]!;
        if (fixed + unit * (distance + delta) >= limit) continue;
        const price = this.candidate(
          r,
          seq,
          len,
          delivery,
          j,
          fixed + unit * (distance + delta),
          cap,
          pen.load,
          pen.timeWarp,
          pen.duration,
        );
        if (price < limit) {
          limit = price;
          best = price;
          this.i = i;
          this.j = j;
        }
      }
    }
    return best;
  }

  /**
   * The same for deliveries after positions jFrom..jTo only (a granular neighbour's places):
   * for each j, the part "customers i+1..j, delivery, customers j+1..len" grows leftwards one
   * customer at a time as the pickup's place i goes down, each candidate then adds the stored
   * head 1..i and the pickup; the part is a lower bound of every smaller i's price, as above.
   */
  private bestBackward(
    r: number,
    pickup: number,
    delivery: number,
    limit: number,
    iFrom: number,
    iTo: number,
    jFrom: number,
    jTo: number,
  ): number {
    const rs = this.rs;
    const m = rs.m;
    const times = rs.times!;
    const loads = rs.loads!;
    const n = m.nodeCount;
    const d = rs.slotMatrix[r]!;
    const seq = rs.seq[r]!;
    const len = rs.length[r]!;
    const fixed = m.fixedCost[r]!;
    const unit = m.unitCost[r]!;
    const pen = rs.penalties;
    const cap = m.maxDurationOf![r]!;
    const dims = this.growLoad.length;
    const distance = rs.fwd[r]![len + 1]!;
    const pd = d[pickup * n + delivery]!;
    const first = Math.max(0, iFrom);
    let leastDetour = Number.POSITIVE_INFINITY;
    for (let i = first; i <= Math.min(len, iTo, jTo); i++) {
      const detour = d[seq[i]! * n + pickup]! + d[pickup * n + seq[i + 1]!]! - d[seq[i]! * n + seq[i + 1]!]!;
      if (detour < leastDetour) leastDetour = detour;
    }
    const rest = this.grow;
    const front = this.cand;
    let best = Number.POSITIVE_INFINITY;
    this.i = -1;
    this.j = -1;
    for (let j = Math.max(0, jFrom); j <= Math.min(len, jTo); j++) {
      const x = seq[j]!;
      const y = seq[j + 1]!;
      const dD = d[x * n + delivery]! + d[delivery * n + y]! - d[x * n + y]!;
      // Delivery, customers j+1..len.
      times.appendTail(rest.setNode(delivery, m.twStart![delivery]!, m.twEnd![delivery]!, m.service[delivery]!), r, seq, j + 1, len);
      for (let k = 0; k < dims; k++) loads.appendTail(loads.appendNode(this.growLoad[k]!.set(0, 0, 0), k, delivery), k, r, j + 1);
      for (let i = Math.min(j, iTo); i >= first; i--) {
        if (i < j) {
          // Customer i + 1 joins the front of the growing part.
          const c = seq[i + 1]!;
          front
            .setNode(c, m.twStart![c]!, m.twEnd![c]!, m.service[c]!)
            .append(times.minutes(r, c, rest.first), rest.duration, rest.timeWarp, rest.earliest, rest.latest, rest.last);
          rest.set(front.duration, front.timeWarp, front.earliest, front.latest, c, front.last);
          let excess = 0;
          for (let k = 0; k < dims; k++) {
            const g = this.growLoad[k]!;
            const node = loads.appendNode(this.candLoad.set(0, 0, 0), k, c).append(g.delivery, g.pickup, g.peak);
            g.set(node.delivery, node.pickup, node.peak);
            excess += g.excess(m.loads[k]!.capacity[r]!);
          }
          if (fixed + unit * (distance + leastDetour + dD) + pen.timeWarp * rest.timeWarp + pen.load * excess >= limit) break;
        }
        const a = seq[i]!;
        const b = seq[i + 1]!;
        const delta =
          i === j
            ? d[a * n + pickup]! + pd + d[delivery * n + b]! - d[a * n + b]!
            : d[a * n + pickup]! + d[pickup * n + b]! - d[a * n + b]! + dD;
        const base = fixed + unit * (distance + delta);
        if (base >= limit) continue;
        // Start, customers 1..i, pickup, the growing part, end.
        const c = times.appendNode(times.appendHead(times.startInto(front, r), r, seq, i), r, pickup);
        times.finish(
          c.append(times.minutes(r, c.last, rest.first), rest.duration, rest.timeWarp, rest.earliest, rest.latest, rest.last),
          r,
        );
        let excess = 0;
        for (let k = 0; k < dims; k++) {
          const g = this.growLoad[k]!;
          const seg = loads
            .appendNode(loads.appendHead(this.candLoad.set(0, 0, 0), k, r, i), k, pickup)
            .append(g.delivery, g.pickup, g.peak);
          excess += seg.excess(m.loads[k]!.capacity[r]!);
        }
        let price = base + (excess > 0 ? pen.load * excess : 0) + pen.timeWarp * c.timeWarp + rs.costs.timeCost(r, c.duration);
        if (c.duration > cap) price += pen.duration * (c.duration - cap);
        if (price < limit) {
          limit = price;
          best = price;
          this.i = i;
          this.j = j;
        }
      }
    }
    return best;
  }

  /** Price of the growing part, then the delivery, then customers j+1..len and the end; `base` is fixed + unit x distance. */
  private candidate(
    r: number,
    seq: Int32Array,
    len: number,
    delivery: number,
    j: number,
    base: number,
    cap: number,
    loadPrice: number,
    warpPrice: number,
    durationPrice: number,
  ): number {
    const rs = this.rs;
    const times = rs.times!;
    const loads = rs.loads!;
    const g = this.grow;
    const c = this.cand.set(g.duration, g.timeWarp, g.earliest, g.latest, g.first, g.last);
    times.finish(times.appendTail(times.appendNode(c, r, delivery), r, seq, j + 1, len), r);
    let excess = 0;
    for (let k = 0; k < this.growLoad.length; k++) {
      const gl = this.growLoad[k]!;
      const seg = this.candLoad.set(gl.delivery, gl.pickup, gl.peak);
      excess += loads.appendTail(loads.appendNode(seg, k, delivery), k, r, j + 1).excess(rs.m.loads[k]!.capacity[r]!);
    }
    const price = base + (excess > 0 ? loadPrice * excess : 0) + warpPrice * c.timeWarp + rs.costs.timeCost(r, c.duration);
    return c.duration > cap ? price + durationPrice * (c.duration - cap) : price;
  }
}
