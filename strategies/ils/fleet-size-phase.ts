import { solverNow } from "../core/clock.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import type { LocalSearch } from "../search/local-search.js";
import { eliminateRoutes } from "../search/route-elimination.js";
import type { FleetPhases } from "../settings.js";
import type { IdenticalVehiclesBest, InPlaceCurrent } from "./identical-vehicles-parts.js";
import type { FleetDiversification } from "./ils-parts.js";

/** Share of the budget a phase with a route fewer lasts. */
const PHASE_SHARE = 0.1;
/** Share of the budget between the end of one phase and the start of the next. */
const GAP_SHARE = 0.1;
/** No phase starts before this share of the budget (the plan is still growing) or after the last one. */
const FIRST_START = 0.1;
const LAST_START = 0.85;
/** Share of a phase the route elimination may take to find the plan with a route fewer (every customer required). */
const ELIMINATION_SHARE = 0.5;

/**
 * Fleet-size diversification for the identical-vehicles iterated search: for a phase of the
 * budget the search runs from its best with one route fewer (the route whose closing costs least
 * closed, `Routes.routeCap` forbidding any empty route to open), then the limit is released and
 * the search goes on from the phase's best when it is cheaper, or else from where it was before
 * the phase. The acceptance and single perturbations judge a plan
 * with a route fewer against the basin of the plans with it, which it does not reach in one step;
 * a phase gives the leaner basin time to settle before the two are compared.
 *
 * With optional customers the closed route's stops are left unserved (the search serves again
 * those that pay); with every customer required the route elimination of the fewest-vehicles
 * objective (search/route-elimination.ts) finds a feasible plan without it, and no phase starts
 * when it finds none. "fullFleet" starts phases only while the best uses every vehicle;
 * "periodic" whatever the best uses.
 */
export class FleetSizePhase implements FleetDiversification {
  /** Progress at which the current phase ends (-1: none running). */
  private phaseEnd = -1;
  private nextStart = FIRST_START;
  /** The best's cost when the phase started, to tell whether the phase paid. */
  private costAtStart = Number.POSITIVE_INFINITY;
  /** Phases in a row that found no cheaper best: the next closes the next cheapest route. */
  private vain = 0;
  /** The current solution's routes when the phase started, given back when the phase finds no cheaper best. */
  private before: number[][] = [];

  constructor(
    private readonly p: CompiledProblem,
    private readonly ls: LocalSearch,
    private readonly current: InPlaceCurrent,
    private readonly best: IdenticalVehiclesBest,
    private readonly mode: FleetPhases,
    /** The search's whole budget in milliseconds (a phase's elimination may take a share of it). */
    private readonly budgetMs: number,
    private readonly rng: Rng,
    private readonly stop: () => boolean,
  ) {}

  /** Once per iteration: starts or ends a phase when due; whether the current solution was replaced. */
  step(progress: number): boolean {
    if (this.phaseEnd >= 0) return progress >= this.phaseEnd ? this.end(progress) : false;
    if (progress < this.nextStart || progress > LAST_START) return false;
    const plan = this.best.solution;
    if (plan === null) return false;
    const used = plan.routes.reduce((sum, route) => sum + (route.length > 0 ? 1 : 0), 0);
    if (used <= 1 || (this.mode === "fullFleet" && used < this.ls.m.routes)) return false;
    const before = this.ls.routes();
    const start = this.ls.m.skipPrice ? this.withoutCheapestRoute(plan) : this.eliminated(plan, used);
    // Tried again only after a gap: an elimination that found nothing is not repeated at once.
    this.nextStart = progress + GAP_SHARE;
    if (start === null) {
      this.ls.loadRoutes(before);
      return false;
    }
    this.before = before;
    this.ls.rs.routeCap = used - 1;
    this.ls.loadRoutes(start);
    this.ls.run(this.rng, this.stop);
    this.current.takeHeld();
    this.costAtStart = this.best.cost;
    this.phaseEnd = progress + PHASE_SHARE;
    return true;
  }

  /** Whether a phase is running (the route limit is in force). */
  get running(): boolean {
    return this.phaseEnd >= 0;
  }

  private end(progress: number): boolean {
    this.phaseEnd = -1;
    this.nextStart = progress + GAP_SHARE;
    this.ls.rs.routeCap = this.ls.m.routes;
    this.vain = this.best.cost < this.costAtStart ? 0 : this.vain + 1;
    // A phase that paid goes on from its best with the limit released; one that did not gives
    // the search back where it was, so that a vain phase costs its time and not the trajectory.
    if (this.vain === 0) this.current.backToBest(this.best.solution!);
    else {
      this.ls.loadRoutes(this.before);
      this.current.takeHeld();
    }
    this.before = [];
    return true;
  }

  /**
   * Optional customers: the best's routes with the one whose closing costs least left out (its
   * stops' skip prices less the route's cost), or the next cheapest after phases that did not pay.
   */
  private withoutCheapestRoute(plan: Solution): number[][] {
    const ls = this.ls;
    const m = ls.m;
    const skip = m.skipPrice!;
    const routes = Array.from({ length: m.routes }, (_, r) => (plan.routes[r] ?? []).slice());
    const closing: { r: number; price: number }[] = [];
    // Each route's cost is read from the local search once the plan is loaded there.
    ls.loadRoutes(routes);
    for (let r = 0; r < m.routes; r++) {
      if (routes[r]!.length === 0) continue;
      let skipped = 0;
      for (const c of routes[r]!) skipped += skip[c]!;
      closing.push({ r, price: skipped - ls.rs.cost[r]! });
    }
    closing.sort((a, b) => a.price - b.price || a.r - b.r);
    routes[closing[this.vain % closing.length]!.r] = [];
    return routes;
  }

  /** Every customer required: the best with a route fewer by the route elimination, or null when it finds none in time. */
  private eliminated(plan: Solution, used: number): number[][] | null {
    const deadline = solverNow() + ELIMINATION_SHARE * PHASE_SHARE * this.budgetMs;
    let removed = false;
    const fewer = eliminateRoutes(
      this.p,
      plan,
      this.rng,
      () => removed || this.stop() || solverNow() >= deadline,
      () => (removed = true),
    );
    if (!removed) return null;
    const routes = fewer.routes.filter((route) => route.length > 0);
    if (routes.length >= used) return null;
    return Array.from({ length: this.ls.m.routes }, (_, r) => routes[r] ?? []);
  }
}
