import { routeSegment, timePenalty, type HgsModel, type Penalties } from "./model.js";
import { Pieces } from "./pieces.js";
import { TimeSegment } from "./time.js";

/**
 * Time windows of the textbook local search (local-search.ts): per route and position k, the time
 * segment (Vidal et al. 2013, time.ts) of positions 0..k (prefix) and k..end (suffix), depots
 * included, so that a candidate route made of pieces is priced (time warp, working-hours excess)
 * from a few concatenations.
 */
export class TextbookTimes {
  readonly preDur: Float64Array[] = [];
  readonly preWarp: Float64Array[] = [];
  readonly preEarly: Float64Array[] = [];
  readonly preLate: Float64Array[] = [];
  readonly sufDur: Float64Array[] = [];
  readonly sufWarp: Float64Array[] = [];
  readonly sufEarly: Float64Array[] = [];
  readonly sufLate: Float64Array[] = [];
  private readonly seg = new TimeSegment();
  private readonly seg2 = new TimeSegment();

  constructor(
    readonly m: HgsModel,
    routes: number,
    slots: number,
  ) {
    for (const list of [this.preDur, this.preWarp, this.preEarly, this.preLate, this.sufDur, this.sufWarp, this.sufEarly, this.sufLate]) {
      for (let r = 0; r < routes; r++) list.push(new Float64Array(slots));
    }
  }

  /** Time penalty of route r as a whole (`end` = its end depot's position). */
  wholePenalty(r: number, end: number, pen: Penalties): number {
    const seg = this.seg.set(this.preDur[r]![end]!, this.preWarp[r]![end]!, this.preEarly[r]![end]!, this.preLate[r]![end]!, this.m.depot, this.m.depot);
    return timePenalty(this.m, pen, seg);
  }

  /** Time penalty of a route given as a customer list (depots added), from scratch. */
  listPenalty(customers: Int32Array, count: number, pen: Penalties): number {
    return timePenalty(this.m, pen, routeSegment(this.m, customers, count, this.seg));
  }

  /** Prefix and suffix time segments of route r (after its sequence changed). */
  set(r: number, seq: Int32Array, end: number): void {
    const m = this.m;
    const w = m.windows!;
    const n = m.nodeCount;
    const seg = this.seg;
    const pd = this.preDur[r]!;
    const pw = this.preWarp[r]!;
    const pe = this.preEarly[r]!;
    const pl = this.preLate[r]!;
    seg.setNode(seq[0]!, w.start[seq[0]!]!, w.end[seq[0]!]!, m.service[seq[0]!]!);
    for (let k = 0; k <= end; k++) {
      const node = seq[k]!;
      if (k > 0) seg.append(m.dist[seq[k - 1]! * n + node]! / m.speed, m.service[node]!, 0, w.start[node]!, w.end[node]!, node);
      pd[k] = seg.duration;
      pw[k] = seg.timeWarp;
      pe[k] = seg.earliest;
      pl[k] = seg.latest;
    }
    const sd = this.sufDur[r]!;
    const sw = this.sufWarp[r]!;
    const se = this.sufEarly[r]!;
    const sl = this.sufLate[r]!;
    const tail = this.seg2;
    for (let k = end; k >= 0; k--) {
      const node = seq[k]!;
      seg.setNode(node, w.start[node]!, w.end[node]!, m.service[node]!);
      if (k < end) seg.append(m.dist[node * n + seq[k + 1]!]! / m.speed, tail.duration, tail.timeWarp, tail.earliest, tail.latest, tail.last);
      tail.set(seg.duration, seg.timeWarp, seg.earliest, seg.latest, seg.first, seg.last);
      sd[k] = seg.duration;
      sw[k] = seg.timeWarp;
      se[k] = seg.earliest;
      sl[k] = seg.latest;
    }
  }

  /** Time penalty of the candidate route made of `pieces` with `count` customers (0 when empty). */
  piecesPenalty(pieces: Pieces, count: number, seqs: readonly Int32Array[], lengths: Int32Array, pen: Penalties): number {
    if (count === 0) return 0;
    const m = this.m;
    const w = m.windows!;
    const n = m.nodeCount;
    const speed = m.speed;
    const seg = this.seg;
    let started = false;
    for (let k = 0; k < pieces.count; k++) {
      const r = pieces.route[k]!;
      const i = pieces.from[k]!;
      const j = pieces.to[k]!;
      const seq = seqs[r]!;
      if (pieces.reversed[k] === 0) {
        if (!started && i === 0) {
          seg.set(this.preDur[r]![j]!, this.preWarp[r]![j]!, this.preEarly[r]![j]!, this.preLate[r]![j]!, seq[0]!, seq[j]!);
          started = true;
          continue;
        }
        if (started && k === pieces.count - 1 && j === lengths[r]! + 1) {
          seg.append(m.dist[seg.last * n + seq[i]!]! / speed, this.sufDur[r]![i]!, this.sufWarp[r]![i]!, this.sufEarly[r]![i]!, this.sufLate[r]![i]!, seq[j]!);
          continue;
        }
      }
      const step = pieces.reversed[k] === 0 ? 1 : -1;
      for (let t = step > 0 ? i : j; step > 0 ? t <= j : t >= i; t += step) {
        const node = seq[t]!;
        if (!started) {
          seg.setNode(node, w.start[node]!, w.end[node]!, m.service[node]!);
          started = true;
        } else seg.append(m.dist[seg.last * n + node]! / speed, m.service[node]!, 0, w.start[node]!, w.end[node]!, node);
      }
    }
    return timePenalty(m, pen, seg);
  }
}
