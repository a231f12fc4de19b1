import { shipmentsOf } from "./map-pairs.js";
import type { PlanView, VehiclePlan } from "./plan-view.js";
import type { SolveRequest } from "./types.js";

/** A shipment with a ride-time limit: how long its goods rode on the plan (null: not both served). */
export interface RideTime {
  shipment: number;
  pickup: number;
  delivery: number;
  ride: number | null;
  limit: number;
  breach: boolean;
}

/** Two stops of one vehicle whose goods are of an incompatible pair and on board together. */
export interface GoodsConflict {
  vehicle: string;
  nodes: [number, number];
  types: [string, string];
}

/** A same-vehicle group and the vehicles that serve its stops (more than one: split). */
export interface GroupView {
  index: number;
  nodes: number[];
  vehicles: string[];
  split: boolean;
}

export interface VisitRulesView {
  rides: RideTime[];
  conflicts: GoodsConflict[];
  groups: GroupView[];
  typeOf: (node: number) => string | null;
}

/** One line of a route's visit rules for the route list; `breach` marks a rule the plan breaks. */
export interface RuleLine {
  text: string;
  breach: boolean;
}

const SLACK_MIN = 1e-6;
const fmt = (x: number) => x.toFixed(1);

/**
 * The visit rules of a request read off a plan: each limited shipment's ride (the delivery's
 * service start minus the end of the pickup's service), pairs of incompatible goods on board one
 * vehicle together, and which vehicles serve each same-vehicle group. Null without any rule.
 */
export function buildVisitRules(request: SolveRequest, plan: PlanView | null): VisitRulesView | null {
  const limited = shipmentsOf(request)
    .map((s, k) => ({ ...s, k, limit: (request.shipments as { max_ride_minutes?: number }[])[k]?.max_ride_minutes }))
    .filter((s) => typeof s.limit === "number");
  const types = Array.isArray(request.node_load_types) ? (request.node_load_types as (string | null)[]) : [];
  const pairs = Array.isArray(request.incompatible_load_types) ? (request.incompatible_load_types as [string, string][]) : [];
  const groupsGiven = Array.isArray(request.same_vehicle_groups) ? (request.same_vehicle_groups as number[][]) : [];
  if (limited.length === 0 && pairs.length === 0 && groupsGiven.length === 0) return null;

  const rides = limited.map((s): RideTime => {
    const from = plan?.visits.get(s.pickup)?.stop;
    const to = plan?.visits.get(s.delivery)?.stop;
    const ready = from?.serviceStart != null && to?.serviceStart != null;
    const ride = ready ? to!.serviceStart! - (from!.serviceStart! + from!.service) : null;
    return {
      shipment: s.k,
      pickup: s.pickup,
      delivery: s.delivery,
      ride,
      limit: s.limit!,
      breach: ride !== null && ride > s.limit! + SLACK_MIN,
    };
  });
  const typeOf = (node: number) => types[node] ?? null;
  const conflicts = plan ? plan.vehicles.flatMap((v) => conflictsOn(request, v, typeOf, pairs)) : [];
  const groups = groupsGiven.map((nodes, index): GroupView => {
    const vehicles = [...new Set(nodes.flatMap((n) => plan?.visits.get(n)?.plan.label ?? []))];
    return { index, nodes, vehicles, split: vehicles.length > 1 };
  });
  return { rides, conflicts, groups, typeOf };
}

/**
 * The incompatible pairs on board one route together. A delivery's goods ride from the start to
 * its stop, a pickup's from its stop to the end, a shipment's between its two stops (positions
 * along the route); two goods overlap when one is loaded before the other is unloaded.
 */
function conflictsOn(
  request: SolveRequest,
  v: VehiclePlan,
  typeOf: (node: number) => string | null,
  pairs: [string, string][],
): GoodsConflict[] {
  if (pairs.length === 0) return [];
  const last = v.stops.length - 1;
  const position = new Map(v.stops.map((s, i) => [s.node, i]));
  const pickups = Array.isArray(request.node_pickups) ? (request.node_pickups as number[]) : [];
  const shipments = shipmentsOf(request);
  const spans: { node: number; type: string; from: number; to: number }[] = [];
  v.stops.forEach((stop, i) => {
    const type = stop.served ? typeOf(stop.node) : null;
    if (type === null) return;
    const asPickup = shipments.find((s) => s.pickup === stop.node);
    if (asPickup) return spans.push({ node: stop.node, type, from: i, to: position.get(asPickup.delivery) ?? last });
    const asDelivery = shipments.find((s) => s.delivery === stop.node);
    if (asDelivery) return spans.push({ node: stop.node, type, from: position.get(asDelivery.pickup) ?? 0, to: i });
    if ((request.node_demands[stop.node] ?? 0) > 0 || !(pickups[stop.node]! > 0)) spans.push({ node: stop.node, type, from: 0, to: i });
    if (pickups[stop.node]! > 0) spans.push({ node: stop.node, type, from: i, to: last });
  });
  const incompatible = (a: string, b: string) => pairs.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  const found: GoodsConflict[] = [];
  for (let i = 0; i < spans.length; i++)
    for (let j = i + 1; j < spans.length; j++) {
      const a = spans[i]!,
        b = spans[j]!;
      if (a.node !== b.node && incompatible(a.type, b.type) && a.from < b.to && b.from < a.to)
        found.push({ vehicle: v.label, nodes: [a.node, b.node], types: [a.type, b.type] });
    }
  return found;
}

/** The route list's lines for one vehicle: its rides against their limits, its goods, its groups. */
export function routeRuleLines(view: VisitRulesView, plan: VehiclePlan): RuleLine[] {
  const on = new Set(plan.route);
  const lines: RuleLine[] = [];
  for (const r of view.rides.filter((r) => r.ride !== null && on.has(r.pickup))) {
    const text = `ride ${r.pickup}→${r.delivery} ${fmt(r.ride!)} of ${fmt(r.limit)} min${r.breach ? " (over the limit)" : ""}`;
    lines.push({ text, breach: r.breach });
  }
  const goods = [...new Set(plan.stops.filter((s) => s.served).flatMap((s) => view.typeOf(s.node) ?? []))];
  if (goods.length > 0) lines.push({ text: `goods ${goods.join(", ")}`, breach: false });
  for (const c of view.conflicts.filter((c) => c.vehicle === plan.label)) {
    lines.push({ text: `conflict: ${c.types[0]} (${c.nodes[0]}) with ${c.types[1]} (${c.nodes[1]}) on board`, breach: true });
  }
  for (const g of view.groups.filter((g) => g.vehicles.includes(plan.label))) {
    lines.push({
      text: `group ${g.index}: ${g.nodes.join(", ")}${g.split ? ` (split over ${g.vehicles.join(", ")})` : ""}`,
      breach: g.split,
    });
  }
  return lines;
}

/** Tooltip lines about a node: its goods and conflicts, its shipment's ride, its group. */
export function describeVisitRules(view: VisitRulesView, node: number): string[] {
  const lines: string[] = [];
  const type = view.typeOf(node);
  if (type !== null) lines.push(`goods ${type}`);
  for (const c of view.conflicts.filter((c) => c.nodes.includes(node))) {
    const other = c.nodes[0] === node ? 1 : 0;
    lines.push(`conflict: on board with ${c.types[other]} of node ${c.nodes[other]} (${c.vehicle})`);
  }
  for (const r of view.rides.filter((r) => r.pickup === node || r.delivery === node)) {
    const ride = r.ride === null ? "not served" : `${fmt(r.ride)} of ${fmt(r.limit)} min`;
    lines.push(`ride of shipment ${r.shipment} (${r.pickup}→${r.delivery}): ${ride}${r.breach ? ", over the limit" : ""}`);
  }
  for (const g of view.groups.filter((g) => g.nodes.includes(node))) {
    const where = g.vehicles.length === 0 ? "" : g.split ? `, split over ${g.vehicles.join(", ")}` : `, together on ${g.vehicles[0]}`;
    lines.push(`same-vehicle group ${g.index}: ${g.nodes.join(", ")}${where}`);
  }
  return lines;
}
