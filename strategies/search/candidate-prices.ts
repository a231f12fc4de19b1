import { evaluateRoute } from "../core/evaluator.js";
import type { CostEvaluator } from "./cost-evaluator.js";
import type { Pieces } from "./pieces.js";
import { piecesDistance, piecesLoad, piecesService, writePieces, type PieceSource } from "./piece-walks.js";
import type { RouteLoads } from "./route-loads.js";
import type { RouteLocks } from "./route-locks.js";
import type { RouteReassignment } from "./route-reassignment.js";
import type { RouteRules } from "./route-rules.js";
import type { RouteSchedules } from "./route-schedules.js";
import type { RouteTimes } from "./route-times.js";
import type { RouteTrips } from "./route-trips.js";
import type { RouteVisits } from "./route-visits.js";
import type { TimeSegment } from "./time-segment.js";
import { visitWarp } from "./travel-data.js";

/** The parts of the route model (routes.ts) that price a candidate route. */
export interface CandidateSource extends PieceSource {
  readonly length: Int32Array;
  readonly routeOf: Int32Array;
  readonly pos: Int32Array;
  readonly times: RouteTimes | null;
  readonly loads: RouteLoads | null;
  readonly trips: RouteTrips | null;
  readonly visits: RouteVisits | null;
  readonly schedules: RouteSchedules | null;
  readonly rules: RouteRules | null;
  readonly locks: RouteLocks | null;
  readonly reassignment: RouteReassignment | null;
  readonly costs: CostEvaluator;
}

/**
 * The price of a candidate route, a vehicle driving pieces (pieces.ts) of the model's routes, in
 * about O(pieces): a bound (fixed + unit x distance, the load part and the rules' caps) that most
 * candidates fail, then the time part (time segments under hard windows, the shared evaluator
 * under soft ones, the additive duration otherwise). The stored routes' own prices are routes.ts's.
 */
export class CandidatePrices {
  private readonly buffer: Int32Array;

  constructor(private readonly rs: CandidateSource) {
    this.buffer = new Int32Array(rs.m.customers.length + 2);
  }

  /**
   * Fixed + unit x distance + load penalty of vehicle v driving `pieces` (0 when empty): a lower
   * bound of the full price, checked first so that most candidates never reach the time part.
   * With `limit`: once fixed + unit x distance alone reaches it, that part is returned without
   * the order and load walks (the full price can only be higher, so a caller that refuses a
   * price >= limit decides the same; those walks are a large share of the time on shipments).
   * orderKept: the caller knows the candidate keeps every shipment whole (pair-insertion.ts).
   */
  basePrice(v: number, pieces: Pieces, orderKept = false, limit = Number.POSITIVE_INFINITY): number {
    const rs = this.rs;
    if (rs.locks && !rs.locks.keeps(v, pieces)) return Number.POSITIVE_INFINITY;
    if (pieces.size === 0) return 0;
    // Skills first: on problems with them most refused candidates are refused here, in O(pieces).
    if (rs.rules && !rs.rules.allows(v, pieces, rs.seq)) return Number.POSITIVE_INFINITY;
    const m = rs.m;
    const distance = piecesDistance(rs, v, pieces);
    const travel = m.fixedCost[v]! + m.unitCost[v]! * distance + (rs.reassignment ? rs.reassignment.price(v, pieces) : 0);
    if (travel >= limit) return travel;
    const order = rs.loads?.order;
    if (order && !orderKept && order.brokenPieces(pieces, rs.seq, rs.routeOf, rs.pos)) return Number.POSITIVE_INFINITY;
    // Backhauls: a delivery after a pickup is refused, as PyVRP refuses a backhaul -> linehaul arc.
    if (order && order.orderExcessPieces(pieces, rs.seq) > 0) return Number.POSITIVE_INFINITY;
    const excess = rs.trips?.reloads
      ? rs.trips.excessOf(v, pieces, rs.seq, rs.length)
      : rs.loads
        ? rs.loads.excessOfPieces(v, pieces, rs.seq)
        : piecesLoad(rs, pieces) - m.capacity[v]!;
    const price = travel + (excess > 0 ? rs.costs.penalties.load * excess : 0);
    return rs.rules ? price + rs.rules.capPrice(v, pieces, distance, rs.costs.penalties) : price;
  }

  /**
   * The time part of the price: time warp and working-hours excess, or soft lateness and missed
   * breaks (exact, on the stored schedules), or additive duration excess.
   */
  timePrice(v: number, pieces: Pieces): number {
    const own = this.ownTimePrice(v, pieces);
    if (!this.rs.visits || pieces.size === 0) return own;
    // Visit rules (route-visits.ts): priced on the candidate's whole customer list, after the bound.
    const count = this.write(pieces, this.buffer);
    return own + this.rs.visits.price(v, this.buffer, count, this.rs.costs.penalties);
  }

  private ownTimePrice(v: number, pieces: Pieces): number {
    const rs = this.rs;
    const m = rs.m;
    if (pieces.size === 0) return 0;
    const pen = rs.costs.penalties;
    if (rs.trips?.timed) {
      return rs.costs.timePrice(rs.trips.segmentOf(v, pieces, rs.seq, rs.length), m.maxDurationOf![v]!);
    }
    if (rs.times) return rs.costs.routeTimePrice(v, rs.times.segmentOf(v, pieces, rs.seq, rs.length), m.maxDurationOf![v]!);
    if (rs.schedules) {
      rs.schedules.walk(v, pieces, rs.seq, rs.length);
      return this.schedulePrice(v, rs.schedules);
    }
    if (m.twStart) return this.evaluatedTimePrice(v, this.buffer, this.write(pieces, this.buffer));
    if (m.durationLimit === Number.POSITIVE_INFINITY) return 0;
    const excess = this.distanceOf(v, pieces) / m.speed[v]! + this.serviceOf(pieces) - m.durationLimit;
    return excess > 0 ? pen.duration * excess : 0;
  }

  /** The time price of the schedule last walked: soft lateness or hard lateness as time warp, and with durations their cost and cap. */
  private schedulePrice(v: number, schedules: RouteSchedules): number {
    const m = this.rs.m;
    const costs = this.rs.costs;
    const late =
      schedules.lateMinutes * (m.latePenalty > 0 ? m.latePenalty : costs.penalties.timeWarp) +
      schedules.missedBreakMinutes * costs.penalties.timeWarp;
    if (!schedules.durations) return late;
    const excess = schedules.duration - m.maxDurationOf![v]!;
    return late + costs.timeCost(v, schedules.duration) + (excess > 0 ? costs.penalties.duration * excess : 0);
  }

  /** The full price (orderKept: as in basePrice). */
  price(v: number, pieces: Pieces, orderKept = false): number {
    return this.basePrice(v, pieces, orderKept) + this.timePrice(v, pieces);
  }

  /** Time segment of vehicle v driving `pieces` from its start node to its end node (hard windows). */
  segmentOf(v: number, pieces: Pieces): TimeSegment {
    return this.rs.times!.segmentOf(v, pieces, this.rs.seq, this.rs.length);
  }

  /**
   * Time price (as timePrice) of vehicle v driving customers[0..count) from scratch, under hard
   * windows or on the evaluator's schedules of several or soft windows (0 otherwise).
   */
  listTimePrice(v: number, customers: ArrayLike<number>, count: number): number {
    const own = this.ownListTimePrice(v, customers, count);
    return this.rs.visits ? own + this.rs.visits.price(v, customers, count, this.rs.costs.penalties) : own;
  }

  private ownListTimePrice(v: number, customers: ArrayLike<number>, count: number): number {
    const rs = this.rs;
    if (count > 0 && rs.trips?.timed) return rs.costs.timePrice(rs.trips.listSegment(v, customers, count), rs.m.maxDurationOf![v]!);
    if (count > 0 && rs.schedules) {
      rs.schedules.walkList(v, customers, count);
      return this.schedulePrice(v, rs.schedules);
    }
    // Traffic: no stored form times the route, the evaluator does (as in timePrice).
    if (count > 0 && !rs.times && rs.m.twStart && rs.m.p.travel?.traffic) return this.evaluatedTimePrice(v, customers, count);
    if (count === 0 || !rs.times) return 0;
    return rs.costs.routeTimePrice(v, rs.times.listSegment(v, customers, count), rs.m.maxDurationOf![v]!);
  }

  /** The time price of vehicle v driving customers[0..count) as the evaluator times it: soft lateness, time cost, excess, warp. */
  private evaluatedTimePrice(v: number, customers: ArrayLike<number>, count: number): number {
    const m = this.rs.m;
    const pen = this.rs.costs.penalties;
    const score = evaluateRoute(m.p, v, customers, count);
    const warp = m.visitTimes ? pen.timeWarp * visitWarp(m, score) : 0;
    return score.latePenalty + (score.timeCost ?? 0) + pen.duration * score.durationExcessMin + warp;
  }

  /** Distance of vehicle v driving `pieces` from its start to its end node. */
  distanceOf(v: number, pieces: Pieces): number {
    return piecesDistance(this.rs, v, pieces);
  }

  /** Service minutes of the customers in `pieces`. */
  serviceOf(pieces: Pieces): number {
    return piecesService(this.rs, pieces);
  }

  /** Writes the customers of `pieces` in order into `out`; returns their count. */
  write(pieces: Pieces, out: Int32Array): number {
    return writePieces(this.rs, pieces, out);
  }
}
