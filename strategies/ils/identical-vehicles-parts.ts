import type { Budget } from "../core/budget.js";
import { evaluateSolution } from "../core/evaluator.js";
import type { CompiledProblem, Solution } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import type { LocalSearch } from "../search/local-search.js";
import type { RepairScope } from "../settings.js";
import { toSolution } from "../search/identical-vehicles/solutions.js";
import { attemptsRepair, type BestSolution, type Candidate, type CurrentSolution, type Education } from "./ils-parts.js";
import type { PenaltyManager } from "../search/penalty-manager.js";
import { RouteUndo } from "./route-undo.js";
import { moveLoadToRoom, onlyLoadBinds } from "./load-room.js";
import type { RepairRule } from "./repair-rule.js";

/** Rounding allowed in the local search's running sums when a cost must beat another. */
const EPS = 1e-7;

/** Which constraints the routes the local search holds keep: load, duration and (under binding windows) time warp. */
export class Constraints {
  /** Under binding windows the working-hours cap applies to the scheduled duration (the route model's time segments). */
  readonly durationLimit: number;
  constructor(private readonly ls: LocalSearch) {
    this.durationLimit = ls.m.windows ? ls.m.windows.maxDuration : ls.m.durationLimit;
  }

  load(): boolean {
    for (let r = 0; r < this.ls.m.routes; r++) if (this.ls.overloaded(r)) return false;
    return true;
  }

  duration(): boolean {
    for (let r = 0; r < this.ls.m.routes; r++) if (this.ls.durationOf(r) > this.durationLimit + 1e-7) return false;
    return true;
  }

  /** No time warp (always true without binding windows). */
  warp(): boolean {
    if (!this.ls.m.windows) return true;
    for (let r = 0; r < this.ls.m.routes; r++) if (this.ls.timeWarpOf(r) > 1e-9) return false;
    return true;
  }

  all(): boolean {
    return this.load() && this.duration() && this.warp();
  }

  /** Whether route r breaks a constraint. */
  broken(r: number): boolean {
    const ls = this.ls;
    return ls.overloaded(r) || ls.durationOf(r) > this.durationLimit + 1e-7 || (ls.m.windows !== null && ls.timeWarpOf(r) > 1e-9);
  }
}

/**
 * The current solution lives in the local search: a rejected candidate is undone by restoring
 * the routes it rewrote (route-undo.ts), and its cost is the local search's running total.
 */
export class InPlaceCurrent implements CurrentSolution<Candidate> {
  private readonly routes: RouteUndo;
  private mark = -1;
  private currentCost = 0;
  constructor(
    private readonly p: CompiledProblem,
    private readonly ls: LocalSearch,
    private readonly rng: Rng,
    private readonly stop: () => boolean,
  ) {
    this.routes = new RouteUndo(ls);
  }

  /** The routes the local search holds become current. */
  takeHeld(): void {
    this.routes.save(-1);
    this.currentCost = this.ls.totalCost();
  }

  beginCandidate(): void {
    this.mark = this.ls.clock;
  }

  cost(): number {
    return this.currentCost;
  }

  keep(candidate: Candidate): void {
    this.routes.save(this.mark);
    this.currentCost = candidate.cost;
  }

  undo(): void {
    this.routes.restore(this.mark);
  }

  repriced(): void {
    this.currentCost = this.ls.totalCost();
  }

  /** The best again, descended from at the current prices. */
  backToBest(best: Solution): void {
    this.ls.loadRoutes(Array.from({ length: this.ls.m.routes }, (_, r) => best.routes[r] ?? []));
    this.ls.run(this.rng, this.stop);
    this.takeHeld();
  }

  solution(): Solution {
    return toSolution(this.p, this.ls.routes());
  }
}

/**
 * The local search again only around the routes the perturbation changed; an infeasible outcome is
 * repaired as in HGS: the local search again under penalties x10, then x100, from the customers
 * of the routes that break a constraint (with `scope` "nearby" also those near them, settings.ts
 * RepairScope), until the routes are feasible; the prices go back after. Once a
 * feasible plan is known, only half the infeasible outcomes get a repair attempt, none when
 * `repairOnceFeasible` is false (PyVRP's way: the prices alone steer back to feasible plans), or
 * the share `rule` sets from what repairs have paid so far (repair-rule.ts).
 *
 * With `reach` (the most the acceptance would take, or the best's cost if higher) only outcomes
 * whose penalised cost is already below it are repaired. A repair descends at raised prices from a
 * local optimum at the current ones, so the feasible plan it ends with nearly always costs more
 * than the outcome did: an outcome out of reach would be neither accepted nor a new best after
 * its repair either, and its repair would be work spent on a plan the search then undoes.
 */
export class IdenticalVehiclesEducation implements Education<Candidate> {
  /** Whether a failed repair may look for room fleet-wide (load-room.ts). */
  private readonly loadRoom: boolean;
  /** Whether a repair's runs also examine the customers near the rewritten routes (RepairScope). */
  private readonly nearby: boolean;
  constructor(
    private readonly ls: LocalSearch,
    private readonly constraints: Constraints,
    private readonly prices: PenaltyManager,
    private readonly rng: Rng,
    private readonly stop: () => boolean,
    private readonly repairOnceFeasible = true,
    private readonly rule: RepairRule | null = null,
    private readonly reach: (() => number) | null = null,
    scope: RepairScope = "nearby",
  ) {
    this.loadRoom = onlyLoadBinds(ls.m);
    this.nearby = scope === "nearby";
  }

  educate(bestKnown: boolean): Candidate {
    const c = this.constraints;
    const rule = this.rule;
    const before = this.ls.examined;
    this.ls.runLocalised(this.rng, this.stop);
    rule?.descended(this.ls.examined - before, bestKnown);
    const load = c.load();
    const duration = c.duration();
    const warp = c.warp();
    this.prices.record({ load, duration, timeWarp: warp });
    const feasible = load && duration && warp;
    if (!feasible && this.repairs(bestKnown)) {
      const start = this.ls.examined;
      this.repair(!bestKnown);
      rule?.repaired(this.ls.examined - start);
    }
    return { cost: this.ls.totalCost(), feasible: c.all() };
  }

  private repairs(bestKnown: boolean): boolean {
    if (this.rule) return this.rule.repairs(bestKnown);
    if (bestKnown && this.reach && this.ls.totalCost() >= this.reach()) return false;
    return this.repairOnceFeasible ? attemptsRepair(this.rng, bestKnown) : !bestKnown;
  }

  /**
   * `farRoom`: a repair still over capacity at the highest prices may look for room fleet-wide
   * (load-room.ts): until a first feasible plan is known, the one thing the search lacks; after, a
   * failed repair's outcome is undone anyway, and its price (a descent more) is not paid back.
   */
  repair(farRoom = true): void {
    const ls = this.ls;
    const pen = this.prices.current;
    for (const factor of [10, 100]) {
      ls.penalties = this.prices.scaled(factor);
      ls.reprice();
      for (let r = 0; r < ls.m.routes; r++) if (this.constraints.broken(r)) ls.markChanged(r);
      ls.runLocalised(this.rng, this.stop, this.nearby);
      if (this.constraints.all()) break;
    }
    // Still over capacity at the highest prices: room farther away than the granular moves reach.
    if (farRoom && this.loadRoom && !this.constraints.load() && moveLoadToRoom(ls)) ls.runLocalised(this.rng, this.stop, this.nearby);
    ls.penalties = pen;
    ls.reprice();
  }
}

/** The best feasible solution: the local search's routes when their penalised cost is a new low and the evaluator agrees. */
export class IdenticalVehiclesBest implements BestSolution<Candidate> {
  solution: Solution | null = null;
  /** The best's cost (infinite until a feasible plan is known). */
  cost = Number.POSITIVE_INFINITY;
  constructor(
    private readonly p: CompiledProblem,
    private readonly ls: LocalSearch,
    private readonly budget: Budget,
    private readonly rule: RepairRule | null = null,
  ) {}

  consider(candidate: Candidate): boolean {
    const better = candidate.feasible && this.record(candidate.cost);
    this.rule?.outcome(better);
    return better;
  }

  /** Records the routes the local search holds, feasible at `cost`, when they are a new best. */
  record(cost: number): boolean {
    if (cost >= this.cost - EPS) return false;
    const solution = toSolution(this.p, this.ls.routes());
    if (!evaluateSolution(this.p, solution).feasible) return false;
    this.solution = solution;
    this.cost = cost;
    this.budget.improved(toSolution(this.p, solution.routes));
    return true;
  }
}
