import { evaluateRoute } from "../core/evaluator.js";
import { conflictingLegs } from "../core/evaluate-visits.js";
import type { VisitRules } from "../core/problem.js";
import type { Penalties } from "./penalties.js";
import type { ProblemData } from "./problem-data.js";

/** A route's visit-rule measures: ride minutes beyond the limits (time warp), and load units of conflicts and split groups. */
export interface VisitExcess {
  rideMinutes: number;
  loadUnits: number;
}

/**
 * Ride-time limits, incompatible goods and same-vehicle groups on the route model, measured on a
 * route's whole customer list (a candidate's pieces written out): shipments riding beyond their
 * limit are time warp (the evaluator's own schedule, only for routes that carry a limited
 * pickup); each leg with an incompatible pair on board, and each stop on a route that holds only
 * part of its group, is excess load of `unit` (the mean capacity: as heavy as a full vehicle's
 * overload, so the adaptive load price removes them as it removes overloads). A group is thus
 * priced, not moved as one: every move sees the split exactly, a partly moved group is never
 * cheaper than a whole one at the same distance, and a plan with a split is infeasible, so the
 * answer never splits a group the search kept whole. Problems without visit rules build none.
 */
export class RouteVisits {
  private readonly visits: VisitRules;
  private readonly unit: number;
  private readonly onRoute: Int32Array;
  readonly excess: VisitExcess = { rideMinutes: 0, loadUnits: 0 };

  constructor(private readonly m: ProblemData) {
    this.visits = m.p.visits!;
    this.unit = m.p.capacity.length > 0 ? Math.max(1, m.p.capacity.reduce((a, b) => a + b, 0) / m.p.capacity.length) : 1;
    this.onRoute = new Int32Array(this.visits.groups.length);
  }

  /** Measures vehicle v driving customers[0..count) into `excess` and returns it. */
  measure(v: number, customers: ArrayLike<number>, count: number): VisitExcess {
    const p = this.m.p;
    const visits = this.visits;
    let limited = false;
    let grouped = 0;
    for (let k = 0; k < count; k++) {
      const c = customers[k]!;
      if (visits.maxRide && visits.maxRide[c]! < Number.POSITIVE_INFINITY) limited = true;
      const g = visits.groupOf ? visits.groupOf[c]! : -1;
      if (g >= 0 && c < p.nodeCount) {
        this.onRoute[g] = this.onRoute[g]! + 1;
        grouped++;
      }
    }
    let split = 0;
    if (grouped > 0) {
      for (let k = 0; k < count; k++) {
        const g = visits.groupOf![customers[k]!]!;
        if (g < 0) continue;
        if (this.onRoute[g]! > 0 && this.onRoute[g]! < visits.groups[g]!.length) split += this.onRoute[g]!;
        this.onRoute[g] = 0;
      }
    }
    this.excess.rideMinutes = limited && count > 0 ? (evaluateRoute(p, v, customers, count).rideExcessMin ?? 0) : 0;
    this.excess.loadUnits = this.unit * (conflictingLegs(p, v, customers, count) + split);
    return this.excess;
  }

  /** The price of vehicle v driving customers[0..count) under `pen`. */
  price(v: number, customers: ArrayLike<number>, count: number, pen: Penalties): number {
    if (count === 0) return 0;
    const e = this.measure(v, customers, count);
    return pen.timeWarp * e.rideMinutes + pen.load * e.loadUnits;
  }
}
