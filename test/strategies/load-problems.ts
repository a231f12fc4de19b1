import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { PerVehiclePricing } from "../../strategies/search/pricing/per-vehicle.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { Routes } from "../../strategies/search/routes.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import { fleetArb, fleetInstance, type FleetOptions } from "./fleet-problems.js";

export type LoadKind = "pickups" | "backhauls" | "shipments" | "dimensions" | "all";

export interface LoadOptions extends FleetOptions {
  kind: LoadKind;
  loadSeed: number;
}

/**
 * A fleetInstance (fleet-problems.ts) with the load fields of constraints.md switched on:
 * pickups on some customers, backhauls (each customer a delivery or a pickup, never both, and
 * pickups_after_deliveries), shipments (customers paired up, their demands 0), one or two extra
 * dimensions, or all of them at once (backhauls excepted: they forbid nodes with both).
 */
export function loadInstance(o: LoadOptions): SolveRequestInput & ConstraintFields {
  const req = fleetInstance(o) as SolveRequestInput & ConstraintFields;
  let s = o.loadSeed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = req.node_num;
  const m = req.vehicle_num;
  const depot = (i: number) => i < o.depots;
  const demands = req.node_demands!.slice();
  const pickups = new Array<number>(n).fill(0);
  const kinds = o.kind === "all" ? ["pickups", "shipments", "dimensions"] : [o.kind];
  if (kinds.includes("pickups")) for (let i = 0; i < n; i++) if (!depot(i) && rand() < 0.6) pickups[i] = Math.floor(rand() * 6);
  if (kinds.includes("backhauls")) {
    for (let i = 0; i < n; i++) {
      if (depot(i) || rand() < 0.5) continue;
      pickups[i] = demands[i]!;
      demands[i] = 0;
    }
    req.pickups_after_deliveries = true;
  }
  if (kinds.includes("shipments")) {
    const free = Array.from({ length: n - o.depots }, (_, k) => k + o.depots).filter(() => rand() < 0.8);
    const shipments: { pickup: number; delivery: number; amount: number }[] = [];
    for (let k = 0; k + 1 < free.length; k += 2) {
      const a = free[k]!;
      const b = free[k + 1]!;
      const amount = demands[a]! + demands[b]!;
      demands[a] = 0;
      demands[b] = 0;
      pickups[a] = 0;
      pickups[b] = 0;
      shipments.push(rand() < 0.5 ? { pickup: a, delivery: b, amount } : { pickup: b, delivery: a, amount });
    }
    req.shipments = shipments;
  }
  if (kinds.includes("dimensions")) {
    const D = 1 + Math.floor(rand() * 2);
    req.node_extra_demands = Array.from({ length: n }, (_, i) => Array.from({ length: D }, () => (depot(i) ? 0 : Math.floor(rand() * 8))));
    req.vehicles_extra_capacity = Array.from({ length: m }, () => Array.from({ length: D }, () => 8 + Math.floor(rand() * 30)));
  }
  req.node_demands = demands;
  if (pickups.some((q) => q > 0) || kinds.includes("pickups") || kinds.includes("backhauls")) req.node_pickups = pickups;
  return req;
}

export const loadArb = (time: FleetOptions["time"], maxCustomers = 10, kind?: LoadKind): fc.Arbitrary<LoadOptions> =>
  fc
    .tuple(
      fleetArb(time, maxCustomers),
      kind ? fc.constant(kind) : fc.constantFrom<LoadKind>("pickups", "backhauls", "shipments", "dimensions", "all"),
      fc.integer({ min: 1, max: 1_000_000 }),
    )
    .map(([o, k, loadSeed]) => ({ ...o, kind: k, loadSeed }));

/** Random routes that keep the order rules: each shipment on one route, pickup first; deliveries before pickups under backhauls. */
export function validLists(p: CompiledProblem, rng: Rng): number[][] {
  const loads = p.loads!;
  const lists: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  const routeOf = new Int32Array(p.nodeCount).fill(-1);
  for (const c of rng.shuffle(Array.from(p.customers))) {
    const partner = loads.partner[c]!;
    const r = partner >= 0 && routeOf[partner]! >= 0 ? routeOf[partner]! : rng.int(p.vehicleCount);
    routeOf[c] = r;
    lists[r]!.push(c);
  }
  for (const list of lists) {
    for (const s of loads.shipments) {
      const i = list.indexOf(s.pickup);
      const j = list.indexOf(s.delivery);
      if (i > j) [list[i], list[j]] = [list[j]!, list[i]!];
    }
    if (loads.pickupsAfterDeliveries) {
      const key = (c: number) => (loads.pickup[c]! > 0 ? 1 : 0);
      list.sort((a, b) => key(a) - key(b));
    }
  }
  return lists;
}

/** A load instance with random rule-keeping routes (validLists) on the route model at the given prices; null without load rules. */
export function pricedRandomRoutes(
  o: LoadOptions,
  pen: Penalties,
): { p: CompiledProblem; rng: Rng; rs: Routes; ls: PerVehiclePricing } | null {
  const { problem: p } = compileRequest(loadInstance(o));
  if (!p.loads) return null;
  const rng = new Rng(o.seed);
  const rs = new Routes(buildProblemData(p));
  rs.penalties = pen;
  rs.loadRoutes(validLists(p, rng));
  return { p, rng, rs, ls: new PerVehiclePricing(rs) };
}
