import { nearestNeighbours } from "../core/neighbours.js";
import type { CompiledProblem } from "../core/problem.js";
import { sameKindFirst } from "./problem-data.js";
import { assembleModel, identicalVehiclesMismatch, type ModelOutcome } from "./identical-vehicles-model.js";

/**
 * Backhauls (constraints.md: node_pickups with pickups_after_deliveries) as the identical-vehicles model
 * sees them, PyVRP's transformation: with every delivery before every pickup, a route carries its
 * deliveries' total out of the depot and its pickups' total back, so its peak on board is the
 * larger of the two totals (two additive load dimensions, priced exactly by the route model's
 * load segments, route-loads.ts), and the order rule is one forbidden kind of arc, pickup node ->
 * delivery node, priced at ORDER_ARC_FACTOR longest edges per such arc. The identical-vehicles local search
 * and its iterated search (ils/identical-vehicles-ils.ts, O(1) move pricing on a lower bound of the load,
 * exact load in `confirm`) then search these problems as they search a CVRP; a solution that still
 * holds such an arc is refused by the evaluator and never reported.
 */

/** Granular neighbours per customer, of which SAME_KIND of its own kind (as the general search's, problem-data.ts). */
const GRANULARITY = 20;
/**
 * A pickup -> delivery arc costs this many times (customers + 1) longest edges: more than any
 * order-keeping route can cost, so no move that adds one pays off against distance.
 */
const ORDER_ARC_FACTOR = 1;

/** Why the backhaul transformation does not apply (null when it does). */
export function backhaulMismatch(p: CompiledProblem): string | null {
  const rules = p.loads;
  if (!rules || !rules.pickupsAfterDeliveries) return "no backhaul order";
  if (rules.shipments.length > 0) return "shipments";
  if (rules.extraDims > 0) return "extra load dimensions";
  const fleet = identicalVehiclesMismatch(p, true);
  if (fleet !== null) return fleet;
  // A customer with neither a delivery nor a pickup could sit between a pickup and a delivery
  // without a forbidden arc: such problems stay with the general search, which checks the order.
  for (const c of p.customers) if (!(p.demand[c]! > 0) && !(rules.pickup[c]! > 0)) return "a customer with neither a delivery nor a pickup";
  return null;
}

/** Per node: 1 delivers, 2 picks up, 0 neither (depots). */
function kinds(p: CompiledProblem, pickup: Float64Array): Uint8Array {
  const kind = new Uint8Array(p.nodeCount);
  for (const c of p.customers) kind[c] = p.demand[c]! > 0 ? 1 : pickup[c]! > 0 ? 2 : 0;
  return kind;
}

export function buildBackhaulModel(p: CompiledProblem): ModelOutcome {
  const mismatch = backhaulMismatch(p);
  if (mismatch !== null) return { ok: false, reason: mismatch };
  const pickup = p.loads!.pickup;
  const kind = kinds(p, pickup);
  const n = p.nodeCount;
  let maxDistance = 0;
  for (let i = 0; i < p.dist.length; i++) maxDistance = Math.max(maxDistance, p.dist[i]!);
  const forbidden = ORDER_ARC_FACTOR * (p.customers.length + 1) * Math.max(1, maxDistance);
  const dist = Float64Array.from(p.dist);
  for (const a of p.customers) {
    if (kind[a] !== 2) continue;
    for (const b of p.customers) if (kind[b] === 1) dist[a * n + b] = dist[a * n + b]! + forbidden;
  }
  const neighbours = sameKindFirst(p, kind, GRANULARITY, nearestNeighbours(p, GRANULARITY));
  const outcome = assembleModel(p, { dist, neighbours });
  // Binding windows would turn each forbidden arc into hours of travel: not measured, so the general search keeps them.
  if (outcome.ok && outcome.model.windows !== null) return { ok: false, reason: "binding time windows" };
  return outcome;
}
