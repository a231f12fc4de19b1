import { clarkeWrightSolution } from "../clarke-wright/index.js";
import type { CompiledProblem } from "../core/problem.js";
import type { Rng } from "../core/rng.js";
import { LocalSearch } from "../search/local-search.js";
import { Penalties } from "../search/identical-vehicles-model.js";
import type { ProblemData } from "../search/problem-data.js";
import { completeRoutes } from "../search/identical-vehicles/solutions.js";
import { IdenticalVehiclesRuin } from "./identical-vehicles-ruin.js";

/**
 * Start of the identical-vehicles iterated local search when customers are optional (ProblemData.skipPrice):
 * the cheaper, on the search's own penalised total with skip prices, of two constructions that
 * suit the two ends of prize-collecting instances. Growing from no route (recreate serves each
 * customer where that costs less than its skip price) suits prizes that pay for few customers:
 * the savings of every customer there leave far routes whose customers each pay their detour but
 * not together their way out and back, which single removals cannot undo. The savings of every
 * customer, less each route that costs more than its customers' skip prices, suit prizes that
 * pay for most customers, which growing from nothing reaches only slowly.
 */
export function optionalStart(p: CompiledProblem, m: ProblemData, pen: Penalties, rng: Rng): number[][] {
  const ls = LocalSearch.identicalVehicles(m);
  ls.penalties = pen;
  ls.loadRoutes([]);
  new IdenticalVehiclesRuin(ls).reinsert(rng, Array.from(m.customers));
  const grown = ls.routes();
  const grownCost = ls.totalCost();
  ls.loadRoutes(completeRoutes(m, clarkeWrightSolution(p).routes));
  const skip = m.skipPrice!;
  const empty = new Int32Array(0);
  for (let r = 0; r < m.routes; r++) {
    const seq = ls.rs.seq[r]!;
    let prizes = 0;
    for (let k = 1; k <= ls.rs.length[r]!; k++) prizes += skip[seq[k]!]!;
    if (ls.rs.length[r]! === 0 || ls.rs.cost[r]! < prizes) continue;
    for (let k = 1; k <= ls.rs.length[r]!; k++) ls.rs.routeOf[seq[k]!] = -1;
    ls.setRoute(r, empty, 0);
  }
  return ls.totalCost() < grownCost ? ls.routes() : grown;
}
