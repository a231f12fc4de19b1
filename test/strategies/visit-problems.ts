import fc from "fast-check";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { scratchRouteCost } from "./fleet-problems.js";
import { loadArb, loadInstance, type LoadOptions } from "./load-problems.js";

export type VisitKind = "ride" | "goods" | "groups" | "all";

export interface VisitOptions extends LoadOptions {
  visit: VisitKind;
  visitSeed: number;
}

/**
 * A loadInstance (shipments, or pickups) with the visit rules of constraints.md switched on: a
 * ride limit on some shipments (with the time dimension), three goods types with one incompatible
 * pair, and disjoint same-vehicle groups of two or three customers (shipment stops kept together).
 */
export function visitInstance(o: VisitOptions): SolveRequestInput & ConstraintFields {
  const req = loadInstance(o);
  let s = o.visitSeed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = req.node_num;
  const depots = new Set([...req.start_nodes, ...req.end_nodes]);
  const customers = Array.from({ length: n }, (_, i) => i).filter((i) => !depots.has(i));
  const kinds = o.visit === "all" ? ["ride", "goods", "groups"] : [o.visit];
  if (kinds.includes("ride") && req.node_time_windows && req.shipments)
    req.shipments = req.shipments.map((x) => (rand() < 0.6 ? { ...x, max_ride_minutes: 20 + Math.floor(rand() * 200) } : x));
  if (kinds.includes("goods")) {
    const types = ["food", "bleach", "paper"];
    req.node_load_types = Array.from({ length: n }, (_, i) => (depots.has(i) || rand() < 0.3 ? null : types[Math.floor(rand() * 3)]!));
    // A shipment's goods are its two stops' types: one type for both, so no shipment conflicts with itself.
    for (const x of req.shipments ?? []) req.node_load_types[x.delivery] = req.node_load_types[x.pickup]!;
    req.incompatible_load_types =
      req.node_load_types.includes("food") && req.node_load_types.includes("bleach") ? [["food", "bleach"]] : [];
  }
  if (kinds.includes("groups")) {
    const partner = new Map<number, number>();
    for (const x of req.shipments ?? []) {
      partner.set(x.pickup, x.delivery);
      partner.set(x.delivery, x.pickup);
    }
    const groups: number[][] = [];
    const taken = new Set<number>();
    for (const c of customers) {
      if (taken.has(c) || rand() < 0.5) continue;
      const group = [c, ...(partner.has(c) ? [partner.get(c)!] : [])];
      const other = customers.find((d) => !taken.has(d) && !group.includes(d) && !partner.has(d));
      if (other !== undefined && (group.length < 2 || rand() < 0.5)) group.push(other);
      if (group.length < 2) continue;
      group.forEach((x) => taken.add(x));
      groups.push(group);
    }
    req.same_vehicle_groups = groups;
    // Skip penalties: a group is all optional or all required.
    const penalties = req.node_skip_penalties;
    if (penalties)
      for (const g of groups) {
        const price = penalties[g[0]!] ?? null;
        for (const c of g) penalties[c] = price;
      }
  }
  return req;
}

export const visitArb = (time: LoadOptions["time"], maxCustomers = 10, visit?: VisitKind): fc.Arbitrary<VisitOptions> =>
  fc
    .tuple(
      loadArb(time, maxCustomers, "shipments"),
      visit ? fc.constant(visit) : fc.constantFrom<VisitKind>("ride", "goods", "groups", "all"),
      fc.integer({ min: 1, max: 1_000_000 }),
    )
    .map(([o, visit, visitSeed]) => ({ ...o, visit, visitSeed }));

/** The load units a conflicting leg or a stop away from its group weighs in the search: the mean capacity. */
function visitUnit(p: CompiledProblem): number {
  return Math.max(1, p.capacity.reduce((a, b) => a + b, 0) / p.capacity.length);
}

/**
 * The search's penalised price of route v from scratch: scratchRouteCost plus the evaluator's
 * ride excess as time warp, and its conflicting legs and the route's stops of partly held groups
 * (counted here from the groups) as excess load.
 */
export function scratchVisitCost(p: CompiledProblem, v: number, pen: Penalties, route: number[]): number {
  if (route.length === 0) return 0;
  const score = evaluateRoute(p, v, route);
  const visits = p.visits!;
  let split = 0;
  visits.groups.forEach((group) => {
    const here = Array.from(group).filter((c) => route.includes(c)).length;
    if (here > 0 && here < group.length) split += here;
  });
  return (
    scratchRouteCost(p, v, pen, route) +
    pen.timeWarp * (score.rideExcessMin ?? 0) +
    pen.load * visitUnit(p) * ((score.conflictLegs ?? 0) + split)
  );
}
