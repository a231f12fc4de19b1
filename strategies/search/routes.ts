import { evaluateRoute } from "../core/evaluator.js";
import { visitWarp } from "./travel-data.js";
import { ChangedCustomers } from "./changed-customers.js";
import { exactlySymmetric } from "./exact-symmetry.js";
import { CandidatePrices } from "./candidate-prices.js";
import { CostEvaluator } from "./cost-evaluator.js";
import type { ProblemData } from "./problem-data.js";
import type { Penalties } from "./penalties.js";
import { OtherMatrixPrefixes } from "./distance-profiles.js";
import { RouteLoads } from "./route-loads.js";
import { RouteLocks } from "./route-locks.js";
import { RouteReassignment } from "./route-reassignment.js";
import { RouteBalance } from "./route-balance.js";
import { RouteRules } from "./route-rules.js";
import { RouteSchedules } from "./route-schedules.js";
import { RouteTimes } from "./route-times.js";
import { RouteTrips } from "./route-trips.js";
import { RouteVisits } from "./route-visits.js";
import type { TimeSegment } from "./time-segment.js";

/**
 * THE route model of the search, for every method: one route per vehicle (its start node at
 * position 0, customers at 1..length, its end node at length + 1), with the segments that price
 * a candidate route in about O(pieces): distance both ways and delivered load as prefix sums,
 * service as a prefix sum (the additive duration of problems whose windows cannot bind), and
 * under hard windows the time segments of route-times.ts. A candidate route is a vehicle plus
 * pieces (pieces.ts); its start and end nodes, capacity, costs, speed and windows are that
 * vehicle's, which is what makes moves between mixed vehicles and depots exact. Under several or
 * soft windows (lateness delays the rest of the route) the evaluator's own schedules, stored per
 * route (route-schedules.ts), price them, with a vehicle's breaks placed by the evaluator's own
 * programme stored per route the same way (route-breaks.ts). Every price goes through `costs` (cost-evaluator.ts): the
 * identical-vehicles pricing (pricing/identical-vehicles.ts) from totals, the per-vehicle one
 * through `candidates` (candidate-prices.ts).
 */
export class Routes {
  readonly seq: Int32Array[];
  readonly length: Int32Array;
  readonly fwd: Float64Array[];
  readonly bwd: Float64Array[];
  /**
   * Distance from position k to k + 1 (k = 0..length) on the route's own matrix, copied from it:
   * a move's removed arcs read here, next to each other, instead of in scattered matrix rows
   * (the first reads of the matrix are most of a move evaluation's cost), and bit for bit the
   * matrix's value, which a difference of prefix sums is not.
   */
  readonly arc: Float64Array[];
  /**
   * Distance from position k - 1 to k + 1 (k = 1..length) on the route's own matrix: the arc that
   * closes the gap when the customer at k leaves, which every removal prices; stored per route
   * for the reason `arc` is.
   */
  readonly skipArc: Float64Array[];
  /**
   * Vehicles on several distance matrices (distance-profiles.ts): fwdBy[k][r] and bwdBy[k][r] are
   * route r's prefix distances on matrix k (on its own, fwd[r] and bwd[r] themselves); null when
   * the fleet drives on one matrix.
   */
  readonly fwdBy: Float64Array[][] | null;
  readonly bwdBy: Float64Array[][] | null;
  /** Per route slot its vehicle's distance matrix (the request's unless its profile has its own). */
  readonly slotMatrix: Float64Array[];
  /** Every slot matrix the same both ways, bit for bit (exact-symmetry.ts): moves may read a distance from either end. */
  readonly symmetric: boolean;
  private readonly otherMatrices: OtherMatrixPrefixes | null;
  /** Delivered load (dimension 0) of positions 1..k; position length + 1 repeats the total. */
  readonly load: Float64Array[];
  /** Service minutes of positions 0..k. */
  readonly serv: Float64Array[];
  /**
   * Per route its totals: distance (on its own matrix), delivered load and service minutes, the
   * last entries of fwd, load and serv. Every move's bound starts from them: one read here
   * instead of the route's length and then its prefix array.
   */
  readonly totalDistance: Float64Array;
  readonly totalLoad: Float64Array;
  readonly totalService: Float64Array;
  /** Time segments (null unless hard windows are priced by time warp); every load dimension's peak (null for one delivered). */
  readonly times: RouteTimes | null;
  readonly loads: RouteLoads | null;
  /** Reload stops and release times (route-trips.ts); null without them. */
  readonly trips: RouteTrips | null;
  /** Ride-time limits, incompatible goods and same-vehicle groups (route-visits.ts); null without them. */
  readonly visits: RouteVisits | null;
  /** The evaluator's schedules under several or soft windows or breaks (route-schedules.ts); null elsewhere. */
  readonly schedules: RouteSchedules | null;
  /** Penalised cost per route under `penalties`. */
  readonly cost: Float64Array;
  /** Objective per route: fixed + unit x distance, plus the soft-window lateness penalty and the reassignment cost. */
  readonly objective: Float64Array;
  readonly loadExcess: Float64Array;
  readonly timeWarp: Float64Array;
  readonly durationExcess: Float64Array;
  /** Problems with rules (route-rules.ts): skills, distance and stop caps per route (zeros without). */
  readonly rules: RouteRules | null;
  readonly distanceExcess: Float64Array;
  readonly stopsExcess: Float64Array;
  readonly forbidden: Float64Array;
  /** Route duration in minutes: additive (driving + service) or the time segment's (waiting included). */
  readonly duration: Float64Array;
  readonly routeOf: Int32Array;
  readonly pos: Int32Array;
  readonly modifiedAt: Float64Array;
  /** 1 when the route breaks the backhaul order or a shipment's pairing (route-loads.ts): priced at Infinity. */
  readonly broken: Uint8Array;
  /** Locked stops (route-locks.ts): a route that breaks them is broken too; null without them. */
  readonly locks: RouteLocks | null;
  /** The reassignment cost of stops away from their vehicle in the given plan (route-reassignment.ts); null without it. */
  readonly reassignment: RouteReassignment | null;
  /** Each route's workload and the largest ones (route-balance.ts); null without balance. */
  readonly balance: RouteBalance | null;
  clock = 0;
  /** Customers whose route neighbours changed, when a localised search asked for it (trackChanges). */
  changes: ChangedCustomers | null = null;
  /** Prices every route at the current penalties. */
  readonly costs: CostEvaluator;
  /** Prices candidate routes (pieces of these routes on a vehicle) at the same penalties. */
  readonly candidates: CandidatePrices;
  private readonly buffer: Int32Array;

  constructor(readonly m: ProblemData) {
    const slots = m.customers.length + 2;
    this.costs = new CostEvaluator(m);
    const make = <T>(f: () => T): T[] => Array.from({ length: m.routes }, f);
    this.seq = make(() => new Int32Array(slots));
    this.fwd = make(() => new Float64Array(slots));
    this.bwd = make(() => new Float64Array(slots));
    this.arc = make(() => new Float64Array(slots));
    this.skipArc = make(() => new Float64Array(slots));
    const { matrices, indexOf } = m.distances;
    this.slotMatrix = Array.from(indexOf, (k) => matrices[k]!);
    this.symmetric = m.symmetric && exactlySymmetric(this.slotMatrix, m.nodeCount);
    this.otherMatrices = matrices.length > 1 ? new OtherMatrixPrefixes(m.distances, m.nodeCount, this.fwd, this.bwd, slots) : null;
    this.fwdBy = this.otherMatrices?.fwdBy ?? null;
    this.bwdBy = this.otherMatrices?.bwdBy ?? null;
    this.load = make(() => new Float64Array(slots));
    this.serv = make(() => new Float64Array(slots));
    this.totalDistance = new Float64Array(m.routes);
    this.totalLoad = new Float64Array(m.routes);
    this.totalService = new Float64Array(m.routes);
    this.trips = m.p.trips ? new RouteTrips(m) : null;
    this.visits = m.p.visits ? new RouteVisits(m) : null;
    this.times = m.twStart !== null && m.latePenalty === 0 && !m.visitTimes && !this.trips ? new RouteTimes(m, slots) : null;
    this.schedules = RouteSchedules.applies(m) ? new RouteSchedules(m, slots) : null;
    this.loads = m.richLoads ? new RouteLoads(m) : null;
    this.length = new Int32Array(m.routes);
    this.cost = new Float64Array(m.routes);
    this.objective = new Float64Array(m.routes);
    this.loadExcess = new Float64Array(m.routes);
    this.timeWarp = new Float64Array(m.routes);
    this.durationExcess = new Float64Array(m.routes);
    this.rules = m.rules ? new RouteRules(m) : null;
    this.distanceExcess = new Float64Array(m.routes);
    this.stopsExcess = new Float64Array(m.routes);
    this.forbidden = new Float64Array(m.routes);
    this.duration = new Float64Array(m.routes);
    this.routeOf = new Int32Array(m.nodeCount).fill(-1);
    this.pos = new Int32Array(m.nodeCount);
    this.modifiedAt = new Float64Array(m.routes);
    this.broken = new Uint8Array(m.routes);
    this.locks = m.locks ? new RouteLocks(m.locks, m.routes) : null;
    this.reassignment = m.reassignment ? new RouteReassignment(m.reassignment, m.routes, slots) : null;
    this.buffer = new Int32Array(slots);
    this.balance = m.p.balance ? new RouteBalance(m, this, m.p.balance) : null;
    this.candidates = new CandidatePrices(this);
    for (let r = 0; r < m.routes; r++) this.setRoute(r, this.buffer, 0);
  }

  /**
   * Loads one customer list per vehicle (missing lists empty); customers on none are unrouted.
   * Routes that already hold exactly that list are left alone, so their modification times
   * stay and the local search need not look at them again.
   */
  loadRoutes(routes: readonly (readonly number[])[]): void {
    for (let r = 0; r < this.m.routes; r++) {
      const route = routes[r] ?? [];
      if (this.holds(r, route)) continue;
      for (let k = 0; k < route.length; k++) this.buffer[k] = route[k]!;
      this.setRoute(r, this.buffer, route.length);
    }
    // A customer dropped from a route that another route now holds is re-registered there above;
    // one in no list at all stays unrouted.
    const listed = new Uint8Array(this.m.nodeCount);
    for (let r = 0; r < this.m.routes; r++) for (const c of routes[r] ?? []) listed[c] = 1;
    for (const c of this.m.customers) if (!listed[c]) this.routeOf[c] = -1;
  }

  private holds(r: number, route: readonly number[]): boolean {
    if (this.length[r] !== route.length) return false;
    const seq = this.seq[r]!;
    for (let k = 0; k < route.length; k++) if (seq[k + 1] !== route[k]) return false;
    return true;
  }

  routes(): number[][] {
    const out: number[][] = [];
    // Most vehicles of a large free fleet are unused: an empty list for them costs no copy.
    for (let r = 0; r < this.m.routes; r++) out.push(this.length[r] === 0 ? [] : Array.from(this.seq[r]!.subarray(1, this.length[r]! + 1)));
    return out;
  }

  /** Rewrites route r as `customers[0..count)` and recomputes its prefix data and price (forgetOld: see below). */
  setRoute(r: number, customers: ArrayLike<number>, count: number, forgetOld = true): void {
    const m = this.m;
    const n = m.nodeCount;
    const d = this.slotMatrix[r]!;
    const seq = this.seq[r]!;
    const fwd = this.fwd[r]!;
    const bwd = this.bwd[r]!;
    const arc = this.arc[r]!;
    const load = this.load[r]!;
    const serv = this.serv[r]!;
    // Positions before the first changed one keep their prefix data (the same customers give the same
    // sums, added in the same order): a move rewrites the route from there on.
    // A list that shares the route's own memory may have been edited in place: it is rewritten in full.
    const inPlace = ArrayBuffer.isView(customers) && customers.buffer === seq.buffer;
    const oldCount = this.length[r]!;
    const from = inPlace ? 1 : firstChanged(seq, oldCount, customers, count);
    // Likewise the customers after the last changed one keep their suffix time segments (route-times.ts).
    const keptTail = inPlace ? 0 : sameTail(seq, oldCount, customers, count);
    // Customers that leave the route are on none until set elsewhere (a caller that always sets them, or marks them itself, may skip this).
    if (forgetOld) for (let k = 1; k <= this.length[r]!; k++) if (this.routeOf[seq[k]!] === r) this.routeOf[seq[k]!] = -1;
    seq[0] = m.start[r]!;
    for (let k = from; k <= count; k++) seq[k] = customers[k - 1]!;
    seq[count + 1] = m.end[r]!;
    // Every customer is registered again: a caller may have marked the route's customers unrouted first (route-undo.ts).
    for (let k = 1; k <= count; k++) {
      const b = seq[k]!;
      this.routeOf[b] = r;
      this.pos[b] = k;
    }
    for (let k = from; k <= count + 1; k++) {
      const a = seq[k - 1]!;
      const b = seq[k]!;
      const ab = d[a * n + b]!;
      arc[k - 1] = ab;
      fwd[k] = fwd[k - 1]! + ab;
      bwd[k] = bwd[k - 1]! + d[b * n + a]!;
      load[k] = k <= count ? load[k - 1]! + m.demand[b]! : load[k - 1]!;
      serv[k] = serv[k - 1]! + m.service[b]!;
    }
    const skipArc = this.skipArc[r]!;
    for (let k = Math.max(1, from - 1); k <= count; k++) skipArc[k] = d[seq[k - 1]! * n + seq[k + 1]!]!;
    this.otherMatrices?.set(r, seq, count);
    this.length[r] = count;
    this.totalDistance[r] = fwd[count + 1]!;
    this.totalLoad[r] = load[count + 1]!;
    this.totalService[r] = serv[count + 1]!;
    const tripTime = this.trips ? this.tripSegment(r, count) : null;
    this.loadExcess[r] = this.trips?.reloads
      ? this.trips.excess
      : this.loads
        ? this.loads.setRoute(r, seq, count)
        : Math.max(0, load[count]! - m.capacity[r]!);
    const order = this.loads?.order;
    this.broken[r] = order && (order.brokenRange(seq, 1, count) || order.orderExcessRange(seq, 1, count) > 0) ? 1 : 0;
    if (this.locks && !this.locks.setRoute(r, seq, count)) this.broken[r] = 1;
    this.timeWarp[r] = 0;
    this.durationExcess[r] = 0;
    this.duration[r] = 0;
    let late = 0;
    if (count > 0 && tripTime) {
      this.timeWarp[r] = tripTime.timeWarp;
      this.duration[r] = tripTime.duration;
      this.durationExcess[r] = Math.max(0, tripTime.duration - m.maxDurationOf![r]!);
    } else if (count > 0 && this.times) {
      this.times.set(r, seq, count, from, keptTail, oldCount - count);
      const seg = this.times.whole(r, seq, count);
      this.timeWarp[r] = seg.timeWarp;
      this.duration[r] = seg.duration;
      this.durationExcess[r] = Math.max(0, seg.duration - m.maxDurationOf![r]!);
    } else if (count > 0 && this.schedules) {
      // Soft windows: lateness is priced in the objective; several hard windows: it is time warp, as a missed break is.
      const schedules = this.schedules;
      schedules.set(r, seq, count);
      if (m.latePenalty > 0) late = m.latePenalty * schedules.lateMinutes;
      else this.timeWarp[r] = schedules.lateMinutes;
      this.timeWarp[r] += schedules.missedBreakMinutes;
      if (schedules.durations) {
        this.duration[r] = schedules.duration;
        this.durationExcess[r] = Math.max(0, schedules.duration - m.maxDurationOf![r]!);
        late += this.costs.timeCost(r, schedules.duration);
      }
    } else if (count > 0 && m.twStart) {
      // Windows that no stored form covers: the evaluator's own figures.
      const score = evaluateRoute(m.p, r, customers, count);
      // Soft windows: the evaluator's own lateness price, and its time cost with travel rules.
      late = score.latePenalty + (score.timeCost ?? 0);
      if (m.visitTimes) this.timeWarp[r] = visitWarp(m, score);
      this.durationExcess[r] = score.durationExcessMin;
    } else if (count > 0) {
      // Windows that cannot bind: duration is additive (driving + service) under a cap.
      this.duration[r] = fwd[count + 1]! / m.speed[r]! + serv[count + 1]!;
      const excess = fwd[count + 1]! / m.speed[r]! + serv[count + 1]! - m.durationLimit;
      if (excess > 0) this.durationExcess[r] = excess;
    }
    if (this.rules) {
      this.forbidden[r] = this.rules.set(r, seq, count);
      this.distanceExcess[r] = count > 0 ? this.rules.distanceExcess(r, fwd[count + 1]!) : 0;
      this.stopsExcess[r] = this.rules.stopsExcess(r, count);
    }
    if (this.times && m.timeCostPerMin) late = this.costs.timeCost(r, this.duration[r]!);
    if (this.visits && count > 0) {
      const visits = this.visits.measure(r, customers, count);
      this.timeWarp[r] += visits.rideMinutes;
      this.loadExcess[r] += visits.loadUnits;
    }
    const reassigned = this.reassignment ? this.reassignment.setRoute(r, seq, count) : 0;
    this.objective[r] = count > 0 ? m.fixedCost[r]! + m.unitCost[r]! * fwd[count + 1]! + late + reassigned : 0;
    this.cost[r] = this.penalised(r);
    this.balance?.setRoute(r, seq, count);
    this.modifiedAt[r] = ++this.clock;
    this.changes?.record(seq, count, this.clock);
  }

  /** Stores route r's trip segments; its time segment under hard windows (null without them), the load excess in trips.excess. */
  private tripSegment(r: number, count: number): TimeSegment | null {
    const trips = this.trips!;
    trips.set(r, this.seq[r]!, count);
    const seg = trips.whole(r, count);
    return trips.timed ? seg : null;
  }

  /** Route r's forward prefix distances on vehicle v's distance matrix. */
  fwdOn(r: number, v: number): Float64Array {
    return this.fwdBy ? this.fwdBy[this.m.distances.indexOf[v]!]![r]! : this.fwd[r]!;
  }

  /** Route r's backward prefix distances on vehicle v's distance matrix. */
  bwdOn(r: number, v: number): Float64Array {
    return this.bwdBy ? this.bwdBy[this.m.distances.indexOf[v]!]![r]! : this.bwd[r]!;
  }

  /** Starts recording which customers change route neighbours (for a localised search). */
  trackChanges(): ChangedCustomers {
    this.changes ??= new ChangedCustomers(this.m.nodeCount);
    return this.changes;
  }

  /** The penalty prices of `costs`, which every price of this model reads. */
  get penalties(): Penalties {
    return this.costs.penalties;
  }

  set penalties(pen: Penalties) {
    this.costs.penalties = pen;
  }

  private penalised(r: number): number {
    if (this.broken[r]) return Number.POSITIVE_INFINITY;
    const cost = this.costs.excessPrice(this.objective[r]!, this.loadExcess[r]!, this.timeWarp[r]!, this.durationExcess[r]!);
    if (!this.rules) return cost;
    return this.forbidden[r]! > 0 ? Number.POSITIVE_INFINITY : cost + this.costs.rulePrice(this.distanceExcess[r]!, this.stopsExcess[r]!);
  }

  /** Re-prices every route after the penalties changed. */
  reprice(): void {
    for (let r = 0; r < this.m.routes; r++) this.cost[r] = this.penalised(r);
  }

  /** A new reassignment price on every route (the model's Reassignment must be the search's own copy). */
  setReassignmentPrice(price: number): void {
    this.reassignment!.setPrice(price, this.objective);
    this.reprice();
  }

  totalCost(): number {
    let total = 0;
    for (let r = 0; r < this.m.routes; r++) total += this.cost[r]!;
    return this.balance ? total + this.balance.term() : total;
  }
}

/**
 * The first position (1..) at which route `seq` of `oldCount` customers and the new list
 * `customers[0..count)` differ; count + 1 when one is the start of the other.
 */
function firstChanged(seq: Int32Array, oldCount: number, customers: ArrayLike<number>, count: number): number {
  const last = Math.min(oldCount, count);
  let k = 1;
  while (k <= last && seq[k] === customers[k - 1]) k++;
  return k;
}

/** How many customers at the end of route `seq` (`oldCount` customers) the new list `customers[0..count)` ends with too. */
function sameTail(seq: Int32Array, oldCount: number, customers: ArrayLike<number>, count: number): number {
  const most = Math.min(oldCount, count);
  let t = 0;
  while (t < most && seq[oldCount - t] === customers[count - 1 - t]) t++;
  return t;
}
