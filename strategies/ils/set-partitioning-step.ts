import type { Recombination } from "./ils-parts.js";
import type { PerVehicleBest, PerVehicleEducation, SnapshotCurrent } from "./per-vehicle-parts.js";
import type { PoolRecombination } from "./pool-recombination.js";
import type { Routes } from "../search/routes.js";
import { snapshot } from "./snapshot.js";

/**
 * Shipments: the route-fewer step (below) only when the best uses at least this many routes. On
 * three or four routes one fewer is a quarter to a third of the fleet: the pool's plans with it are
 * far from the good ones, and the search spent the rest of the budget leaving them.
 */
const MIN_ROUTES_TO_SQUEEZE = 5;

/**
 * Set partitioning over the pooled routes at the pool's checkpoints: a plan cheaper than the best
 * becomes the best and, educated, the current solution.
 */
export class SetPartitioningStep implements Recombination {
  constructor(
    private readonly pool: PoolRecombination,
    private readonly rs: Routes,
    private readonly current: SnapshotCurrent,
    private readonly education: PerVehicleEducation,
    private readonly best: PerVehicleBest,
    private readonly shipments: boolean,
  ) {}

  step(): boolean {
    const { pool, rs, best } = this;
    if (best.solution === null || !pool.due()) return false;
    const bestRoutes = best.solution.routes;
    const plan = pool.recombine(bestRoutes, best.cost);
    if (plan) {
      const before = rs.clock;
      rs.loadRoutes(plan);
      if (!best.considerSnapshot(snapshot(rs))) {
        // Not a new best after all (the evaluator's check): the search goes on from the current solution.
        this.current.revert(before);
        return false;
      }
      this.current.set(this.education.educate(true));
      best.considerSnapshot(this.current.current);
      return true;
    }
    if (!this.shipments) return false;
    // Nothing cheaper: the pool's cheapest plan with a route fewer, if it holds one, becomes the
    // current solution whatever its distance (a route-minimisation step by set partitioning).
    // Runs that ended above what longer runs find, often with a vehicle too many, had their last
    // new best at the first or second recombination and never left that basin; a start with a
    // route fewer moves the search elsewhere, and the best is kept.
    const used = bestRoutes.filter((route) => route.length > 0).length;
    const fewer = used >= MIN_ROUTES_TO_SQUEEZE ? pool.fewerRoutes(bestRoutes, used - 1) : null;
    if (!fewer) return false;
    rs.loadRoutes(fewer);
    this.current.set(this.education.educate(true));
    return best.considerSnapshot(this.current.current);
  }
}
