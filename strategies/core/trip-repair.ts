import { lexLess } from "./ejection-repair.js";
import { arrivalClose, departureOpen } from "./evaluate-rules.js";
import { isReloadStop } from "./evaluate-trips.js";
import { evaluateRoute, evaluateSolution, type RouteScore } from "./evaluator.js";
import { distanceBetween, type CompiledProblem, type Solution } from "./problem.js";
import type { Rng } from "./rng.js";

/** Lateness the window check lets pass: the evaluator's own rounding (evaluate-trips.ts) decides there. */
const LATE_EPS = 1e-6;
/** Steps a customer placed by an ejection is protected from being ejected in turn (no ping-pong). */
const TABU_STEPS = 12;

interface Placement {
  vehicle: number;
  route: number[];
  /** Demand ejected to make room (with a little noise), then the route's cost increase: smaller is better. */
  key: [number, number];
  ejected: number;
}

/**
 * The feasibility repair for vehicles that reload, whose plans the ejection repair of
 * ejection-repair.ts cannot make (it places customers only). Customers are taken off violating
 * routes until each is feasible (the one whose removal leaves the fewest customers the vehicle may
 * not serve, then the least excess load, then the least other excess, goes first), then put back,
 * largest demand first: at the cheapest feasible place, where a place is a position in a trip, or a
 * new trip made by a reload stop just before or after the customer; when nothing fits, into a route
 * from which one customer of smaller demand is ejected to make room, the ejected one placed in turn
 * (a customer just placed is not ejected again for a few steps). Every check is the shared
 * evaluator's. Returns a feasible plan, with the empty trips it leaves taken out, or null when none
 * is found within `maxSteps` or before `stop`.
 */
export function repairTrips(p: CompiledProblem, from: Solution, rng: Rng, stop: () => boolean, maxSteps: number): Solution | null {
  const repair = new TripRepair(p, from);
  repair.strip();
  const tabuUntil = new Int32Array(p.nodeCount);
  for (let step = 1; step <= maxSteps && repair.unassigned.length > 0; step++) {
    if (stop()) return null;
    const c = repair.nextCustomer(rng);
    const placed = repair.bestPlacement(c) ?? repair.bestEjection(c, step, tabuUntil, rng);
    if (placed) {
      repair.place(c, placed);
      if (placed.ejected >= 0) tabuUntil[c] = step + TABU_STEPS;
    } else repair.makeRoom(rng);
  }
  if (repair.unassigned.length > 0 || !repair.scores.every((s) => s.feasible)) return null;
  repair.tidy();
  // The whole plan by the evaluator: a customer that is also a reload node counts as served only where a stop may be.
  const plan = { routes: repair.routes };
  return evaluateSolution(p, plan).feasible ? plan : null;
}

class TripRepair {
  readonly routes: number[][];
  readonly scores: RouteScore[];
  readonly unassigned: number[] = [];
  private readonly hardWindows: boolean;
  private tripRelease = new Float64Array(0);

  constructor(
    private readonly p: CompiledProblem,
    from: Solution,
  ) {
    const seen = new Uint8Array(p.nodeCount);
    // Reload stops where they are the vehicle's reload nodes (a visit there is a stop, as the
    // evaluator reads it, evaluate-trips.ts), other depot visits dropped, customers once each.
    this.routes = Array.from({ length: p.vehicleCount }, (_, v) =>
      (from.routes[v] ?? []).filter((c) => {
        if (!Number.isInteger(c) || c < 0 || c >= p.nodeCount) return false;
        if (isReloadStop(p.trips!, v, c)) {
          seen[c] = 1;
          return true;
        }
        if (p.isDepot[c] || seen[c]) return false;
        seen[c] = 1;
        return true;
      }),
    );
    for (const c of p.customers) if (!seen[c]) this.unassigned.push(c);
    this.scores = this.routes.map((route, v) => evaluateRoute(p, v, route));
    this.hardWindows = p.time !== null && p.time.latePenaltyPerMin <= 0;
  }

  /** Takes customers off every infeasible route until it is feasible (or holds no customer). */
  strip(): void {
    const p = this.p;
    for (let v = 0; v < p.vehicleCount; v++) {
      while (!this.scores[v]!.feasible) {
        const route = this.routes[v]!;
        let pick = -1;
        let pickKey: number[] = [];
        for (let i = 0; i < route.length; i++) {
          if (isReloadStop(p.trips!, v, route[i]!)) continue;
          const s = evaluateRoute(p, v, without(route, i));
          const key = [s.forbidden, s.capacityExcess, this.violation(s), p.demand[route[i]!]!, s.cost];
          if (pick < 0 || lexLess(key, pickKey)) {
            pick = i;
            pickKey = key;
          }
        }
        if (pick < 0) {
          this.setRoute(v, []);
          break;
        }
        this.unassigned.push(route[pick]!);
        this.setRoute(v, without(route, pick));
      }
    }
  }

  /** The unassigned customer of largest demand (ties at random). */
  nextCustomer(rng: Rng): number {
    const demand = this.p.demand;
    let c = this.unassigned[0]!;
    for (const u of this.unassigned) if (demand[u]! > demand[c]! || (demand[u] === demand[c] && rng.next() < 0.5)) c = u;
    return c;
  }

  /** Cheapest feasible place of c in any route as it stands. */
  bestPlacement(c: number): Placement | null {
    let best: Placement | null = null;
    for (let v = 0; v < this.p.vehicleCount; v++) {
      const at = this.cheapestIn(v, this.routes[v]!, c);
      if (at && (!best || at.cost - this.scores[v]!.cost < best.key[1])) {
        best = { vehicle: v, route: at.route, key: [0, at.cost - this.scores[v]!.cost], ejected: -1 };
      }
    }
    return best;
  }

  /** Cheapest feasible place of c in a route from which one customer (not tabu) is ejected. */
  bestEjection(c: number, step: number, tabuUntil: Int32Array, rng: Rng): Placement | null {
    const p = this.p;
    let best: Placement | null = null;
    for (let v = 0; v < p.vehicleCount; v++) {
      const route = this.routes[v]!;
      for (let i = 0; i < route.length; i++) {
        const e = route[i]!;
        if (isReloadStop(p.trips!, v, e) || tabuUntil[e]! > step) continue;
        const at = this.cheapestIn(v, without(route, i), c);
        if (!at) continue;
        const key: [number, number] = [p.demand[e]! * (1 + 0.1 * rng.next()), at.cost - this.scores[v]!.cost];
        if (!best || lexLess(key, best.key)) best = { vehicle: v, route: at.route, key, ejected: e };
      }
    }
    return best;
  }

  place(c: number, placed: Placement): void {
    this.unassigned.splice(this.unassigned.indexOf(c), 1);
    if (placed.ejected >= 0) this.unassigned.push(placed.ejected);
    this.setRoute(placed.vehicle, placed.route);
  }

  /** Fits nowhere even with an ejection: a random customer leaves a random route. */
  makeRoom(rng: Rng): void {
    const v = rng.int(this.p.vehicleCount);
    const route = this.routes[v]!;
    const customers = route.map((_, i) => i).filter((i) => !isReloadStop(this.p.trips!, v, route[i]!));
    if (customers.length === 0) return;
    const i = customers[rng.int(customers.length)]!;
    this.unassigned.push(route[i]!);
    this.setRoute(v, without(route, i));
  }

  /** Takes out the reload stops that start no trip (first, last, or before another), where the route stays feasible and no dearer. */
  tidy(): void {
    const p = this.p;
    for (let v = 0; v < p.vehicleCount; v++) {
      for (let i = this.routes[v]!.length - 1; i >= 0; i--) {
        const route = this.routes[v]!;
        const stop = (k: number) => isReloadStop(p.trips!, v, route[k]!);
        // Only depot visits: a reload node that is also a customer must stay served.
        if (!p.isDepot[route[i]!] || !stop(i) || (i > 0 && i < route.length - 1 && !stop(i + 1))) continue;
        const rest = without(route, i);
        const s = evaluateRoute(p, v, rest);
        if (s.feasible && s.cost <= this.scores[v]!.cost + 1e-9) this.setRoute(v, rest, s);
      }
    }
  }

  /**
   * Cheapest feasible route of vehicle v with c added to `route`: in a trip, or alone at a new
   * trip's start or end. The places are tried by their added distance, cheapest first; those whose
   * trip would exceed the capacity, or that break a window at the earliest departure, never reach
   * the evaluator.
   */
  private cheapestIn(v: number, route: number[], c: number): { route: number[]; cost: number } | null {
    const p = this.p;
    const cap = p.capacity[v]! + 1e-9;
    const demand = p.demand[c]!;
    const d = (a: number, b: number) => distanceBetween(p, a, b);
    // The loads of each position's trip before it (ahead) and from it on (behind).
    const stop = (c: number) => isReloadStop(p.trips!, v, c);
    const ahead = new Float64Array(route.length + 1);
    const behind = new Float64Array(route.length + 1);
    for (let i = 0; i < route.length; i++) ahead[i + 1] = stop(route[i]!) ? 0 : ahead[i]! + p.demand[route[i]!]!;
    for (let i = route.length - 1; i >= 0; i--) behind[i] = stop(route[i]!) ? 0 : behind[i + 1]! + p.demand[route[i]!]!;
    const places: { pos: number; before: number; after: number; added: number }[] = [];
    for (let pos = 0; pos <= route.length; pos++) {
      const prev = pos === 0 ? p.startNode[v]! : route[pos - 1]!;
      const next = pos === route.length ? p.endNode[v]! : route[pos]!;
      const base = d(prev, next);
      if (ahead[pos]! + demand + behind[pos]! <= cap) places.push({ pos, before: -1, after: -1, added: d(prev, c) + d(c, next) - base });
      // A new trip that starts or ends with c splits this one (none next to a depot visit: that trip would be empty).
      const afterDepot = pos === 0 || stop(prev);
      const beforeDepot = pos === route.length || stop(next);
      for (const r of p.trips!.reloadNodes[v]!) {
        if (!afterDepot && demand + behind[pos]! <= cap)
          places.push({ pos, before: r, after: -1, added: d(prev, r) + d(r, c) + d(c, next) - base });
        if (!beforeDepot && ahead[pos]! + demand <= cap)
          places.push({ pos, before: -1, after: r, added: d(prev, c) + d(c, r) + d(r, next) - base });
      }
    }
    places.sort((a, b) => a.added - b.added);
    for (const { pos, before, after } of places) {
      const trial = route.slice(0, pos);
      if (before >= 0) trial.push(before);
      trial.push(c);
      if (after >= 0) trial.push(after);
      for (let i = pos; i < route.length; i++) trial.push(route[i]!);
      if (!this.keepsWindows(v, trial, stop)) continue;
      const s = evaluateRoute(p, v, trial);
      if (s.feasible) return { route: trial, cost: s.cost };
    }
    return null;
  }

  /**
   * Whether vehicle v, leaving as early as it may, reaches every visit of `trial` (depot visits
   * are its reload stops, which open at their trip's release) and its end node in their windows:
   * the evaluator's lateness is that of the earliest departure, so this refuses only what it would.
   */
  private keepsWindows(v: number, trial: number[], stop: (c: number) => boolean): boolean {
    const p = this.p;
    const t = p.time;
    if (!t) return true;
    const release = p.trips!.release;
    if (this.tripRelease.length < trial.length + 1) this.tripRelease = new Float64Array(2 * trial.length + 2);
    const rel = this.tripRelease;
    let latest = Number.NEGATIVE_INFINITY;
    for (let k = trial.length - 1; k >= 0; k--) {
      const c = trial[k]!;
      if (stop(c)) {
        rel[k] = latest;
        latest = Number.NEGATIVE_INFINITY;
      } else if (release && release[c]! > latest) latest = release[c]!;
    }
    const speed = t.speed[v]!;
    let prev = p.startNode[v]!;
    let clock = Math.max(departureOpen(p, v), latest);
    if (clock > t.twEndMin[prev]! + LATE_EPS) return false;
    for (let k = 0; k < trial.length; k++) {
      const c = trial[k]!;
      const atStop = stop(c);
      clock = Math.max(clock + distanceBetween(p, prev, c) / speed, t.twStartMin[c]!, atStop ? rel[k]! : Number.NEGATIVE_INFINITY);
      if (clock > t.twEndMin[c]! + LATE_EPS) return false;
      if (!atStop) clock += t.serviceMin[c]!;
      prev = c;
    }
    return clock + distanceBetween(p, prev, p.endNode[v]!) / speed <= arrivalClose(p, v) + LATE_EPS;
  }

  private setRoute(v: number, route: number[], score: RouteScore = evaluateRoute(this.p, v, route)): void {
    this.routes[v] = route;
    this.scores[v] = score;
  }

  /** Minutes late or over the working hours, reloads over the limit, and distance and stops over the route caps. */
  private violation(s: RouteScore): number {
    return (this.hardWindows ? s.lateMinutes : 0) + s.durationExcessMin + (s.reloadsExcess ?? 0) + s.distanceExcess + s.stopsExcess;
  }
}

function without(route: number[], i: number): number[] {
  return route.slice(0, i).concat(route.slice(i + 1));
}
