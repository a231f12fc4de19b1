import { relocateGroups } from "../search/moves/group-relocate.js";
import type { Budget } from "../core/budget.js";
import { evaluateSolution } from "../core/evaluator.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import type { LocalSearch } from "../search/local-search.js";
import type { PenaltyManager } from "../search/penalty-manager.js";
import type { PerVehiclePricing } from "../search/pricing/per-vehicle.js";
import type { ProblemData } from "../search/problem-data.js";
import type { Routes } from "../search/routes.js";
import { attemptsRepair, type BestSolution, type Candidate, type CurrentSolution, type Education } from "./ils-parts.js";
import type { PoolRecombination } from "./pool-recombination.js";
import { recreate, ruin, ruinShortestRoute } from "./ruin-recreate.js";
import { MovedStopsFront } from "./moved-stops-front.js";
import { RouteUndo } from "./route-undo.js";
import { RuinStrength } from "./ruin-strength.js";
import type { RuinStrengthSettings } from "../settings.js";
import { looksFeasible, penalised, recordOutcome, snapshot, type Snapshot } from "./snapshot.js";

/** An educated solution of the per-vehicle family: a copy of its routes with their objective and excesses. */
export interface SnapshotCandidate extends Candidate {
  readonly snapshot: Snapshot;
  /** Whether the route store holds the snapshot's routes (not when a failed repair left its attempt there). */
  readonly held: boolean;
}

/**
 * The current solution lives in the route store, as a snapshot beside it for its price: a
 * rejected candidate is undone by restoring the routes it rewrote (route-undo.ts). With
 * `feasibleCurrent` an infeasible current (an education whose repair failed, before a feasible
 * solution was known) gives way to the best once one is known: kept, its penalised cost at low
 * prices stayed below every feasible candidate's, and no candidate could replace it until the
 * prices had risen far enough.
 */
export class SnapshotCurrent implements CurrentSolution<SnapshotCandidate> {
  current!: Snapshot;
  private readonly routes: RouteUndo;
  private mark = -1;
  private reassignmentPrice: number;
  constructor(
    private readonly rs: Routes,
    private readonly ls: LocalSearch<PerVehiclePricing>,
    private readonly penalties: PenaltyManager,
    private readonly best: PerVehicleBest,
    private readonly feasibleCurrent: boolean,
  ) {
    this.routes = new RouteUndo(ls);
    this.reassignmentPrice = rs.reassignment?.r.price ?? 0;
  }

  beginCandidate(): void {
    this.mark = this.rs.clock;
    // Localised education: only what the ruin and recreate (then the moves) change is examined.
    this.ls.focus();
  }

  cost(): number {
    return penalised(this.current, this.penalties.current);
  }

  /** The candidate becomes current as it is, wherever the route store stands. */
  set(candidate: SnapshotCandidate): void {
    this.hold(candidate, -1);
  }

  keep(candidate: SnapshotCandidate): void {
    this.hold(candidate, this.mark);
    this.feasibleOnceKnown();
  }

  undo(): void {
    this.revert(this.mark);
    this.feasibleOnceKnown();
  }

  /** The store's routes rewritten after clock `since` go back to the current solution's. */
  revert(since: number): void {
    this.routes.restore(since);
  }

  /** The current solution's objective at the search's reassignment price, when that changed (moves-price.ts). */
  repriced(): void {
    const price = this.rs.reassignment?.r.price ?? 0;
    if (price === this.reassignmentPrice) return;
    this.current = { ...this.current, objective: this.current.objective + (price - this.reassignmentPrice) * this.current.away };
    this.reassignmentPrice = price;
  }

  backToBest(best: Solution): void {
    this.load(best.routes);
  }

  solution(): Solution {
    return { routes: this.current.routes };
  }

  /** With a feasible current: the best replaces an infeasible current once it is known. */
  feasibleOnceKnown(): void {
    const best = this.best.solution;
    if (!this.feasibleCurrent || best === null || looksFeasible(this.current)) return;
    this.load(best.routes);
  }

  /** The candidate is current; the store's routes rewritten after clock `since` are saved. */
  private hold(candidate: SnapshotCandidate, since: number): void {
    if (candidate.held) this.routes.save(since);
    else this.load(candidate.snapshot.routes);
    this.current = candidate.snapshot;
  }

  /** The store holds `routes`, and they are current. */
  private load(routes: readonly (readonly number[])[]): void {
    this.rs.loadRoutes(routes);
    this.routes.save(-1);
    this.current = snapshot(this.rs);
  }
}

/**
 * The general granular local search on a penalised cost (after `focus`, only around what changed);
 * an infeasible result is repaired with the prices raised x10, then x100, revisiting the routes that
 * break a constraint. With `feasibleCurrent` every infeasible result gets a repair (infeasible
 * candidates never become current), and the prices adapt to the education's own outcome, before
 * any repair: counting repaired outcomes (nearly all feasible) kept lowering the load price while
 * the educations came out ever more overloaded, every repair then a plan far dearer than the best.
 */
export class PerVehicleEducation implements Education<SnapshotCandidate> {
  constructor(
    private readonly rs: Routes,
    private readonly ls: LocalSearch<PerVehiclePricing>,
    private readonly penalties: PenaltyManager,
    private readonly pool: PoolRecombination | null,
    private readonly feasibleCurrent: boolean,
    private readonly rng: Rng,
    private readonly stop: () => boolean,
  ) {}

  educate(bestKnown: boolean): SnapshotCandidate {
    const { rs, ls, penalties, pool } = this;
    ls.run(this.rng, this.stop);
    // Same-vehicle groups change vehicle as one block (moves/group-relocate.ts), then the moves polish.
    if (rs.visits && relocateGroups(rs)) ls.run(this.rng, this.stop);
    pool?.harvest();
    let result = snapshot(rs);
    const beforeRepair = result;
    let held = true;
    if (!looksFeasible(result) && attemptsRepair(this.rng, bestKnown, this.feasibleCurrent)) {
      held = false;
      for (const factor of [10, 100]) {
        rs.penalties = penalties.scaled(factor);
        rs.reprice();
        ls.revisitViolating();
        ls.run(this.rng, this.stop);
        // At raised prices a group leaves an overloaded route only as a whole block.
        if (rs.visits && relocateGroups(rs)) ls.run(this.rng, this.stop);
        const repaired = snapshot(rs);
        pool?.harvest();
        if (looksFeasible(repaired)) {
          result = repaired;
          held = true;
          break;
        }
      }
      rs.penalties = penalties.current;
      rs.reprice();
      ls.revisitViolating();
    }
    recordOutcome(penalties, this.feasibleCurrent ? beforeRepair : result);
    return { snapshot: result, held, cost: penalised(result, penalties.current), feasible: looksFeasible(result) };
  }
}

/**
 * The best feasible solution. With rules the search's objective adds the skip prices of unserved
 * customers (the evaluator's cost has the optional ones' penalties; required ones left out, when
 * allowed, are priced as the search prices them, so that serving one always counts as better).
 */
export class PerVehicleBest implements BestSolution<SnapshotCandidate> {
  solution: Solution | null = null;
  cost = Number.POSITIVE_INFINITY;
  constructor(
    private readonly p: CompiledProblem,
    private readonly m: ProblemData,
    private readonly budget: Budget,
    /** Under the default reassignment price: the plans the answer is chosen from (moved-stops-front.ts). */
    private readonly front: MovedStopsFront | null = null,
  ) {}

  consider(candidate: SnapshotCandidate): boolean {
    return this.considerSnapshot(candidate.snapshot);
  }

  /** The best, or under the default reassignment price the front's choice when the evaluator finds it feasible. */
  answer(): Solution | null {
    const chosen = this.front?.answer() ?? null;
    return chosen && evaluateSolution(this.p, chosen).feasible ? chosen : this.solution;
  }

  considerSnapshot(s: Snapshot): boolean {
    // The search's reassignment price may differ from the problem's (moves-price.ts); the best is on the problem's.
    const searchPrice = this.m.reassignment?.price ?? 0;
    this.front?.offer(s, searchPrice);
    const objective = s.objective + ((this.p.reassignment?.price ?? 0) - searchPrice) * s.away;
    if (!looksFeasible(s) || objective + s.unserved >= this.cost - 1e-9) return false;
    const solution = { routes: s.routes.map((r) => r.slice()) };
    const score = evaluateSolution(this.p, solution);
    const cost = this.m.rules && score.missing.length > 0 ? score.cost + requiredPrice(this.m, score.missing) : score.cost;
    if (!score.feasible || cost >= this.cost - 1e-9) return false;
    this.solution = solution;
    this.cost = cost;
    this.budget.improved({ routes: solution.routes.map((r) => r.slice()) });
    return true;
  }
}

/** The search's price of required customers left unserved (allowed unassigned). */
function requiredPrice(m: ProblemData, missing: readonly number[]): number {
  let total = 0;
  for (const c of missing) total += m.rules!.skipPrice[c]!;
  return total;
}

/**
 * Ruins a few nearby customers or a route (`shortRoutes`: preferring short routes) and reinserts
 * them greedily through the pricing. Shipments (`eliminations`): that share of perturbations
 * removes the route with the fewest stops instead, and the used routes must take its customers
 * first (no vehicle may open); whatever they could not take goes anywhere after. With `strength`
 * settings the nearby ruin's and the strings' sizes grow while the education undoes the
 * perturbations (ruin-strength.ts), used while every vehicle is on the road.
 */
export class RuinRecreate {
  private readonly strength: RuinStrength;
  constructor(
    private readonly rs: Routes,
    private readonly pricing: PerVehiclePricing,
    private readonly maxRuin: number,
    private readonly shortRoutes: boolean,
    private readonly eliminations: number,
    /** Free vehicles' types in a random order, the first improving one taken (settings.ts EmptyTypeOrder). */
    private readonly shuffledTypes = false,
    strength: RuinStrengthSettings | null = null,
  ) {
    this.strength = new RuinStrength(strength);
  }

  outcome(cameBack: boolean): void {
    this.strength.outcome(cameBack);
  }

  private fleetInUse(): boolean {
    const length = this.rs.length;
    for (let r = 0; r < length.length; r++) if (length[r] === 0) return false;
    return true;
  }

  perturb(rng: Rng): void {
    const rs = this.rs;
    const eliminated = this.eliminations > 0 && rng.next() < this.eliminations ? ruinShortestRoute(rs, rng) : [];
    const eliminate = eliminated.length > 0;
    const scale = this.strength.value > 1 && this.fleetInUse() ? this.strength.value : 1;
    const removed = eliminate ? eliminated : ruin(rs, rng, 1 + rng.int(Math.round(this.maxRuin * scale)), this.shortRoutes, scale);
    recreate(this.pricing, rng, removed, false, !eliminate, this.shuffledTypes);
    if (eliminate)
      recreate(
        this.pricing,
        rng,
        removed.filter((c) => rs.routeOf[c]! < 0),
        false,
        true,
        this.shuffledTypes,
      );
  }
}
