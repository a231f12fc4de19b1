import { expect } from "chai";

/** The visit-rule fields of a request, as the checker reads them (constraints.md, "What dispatchers weigh beyond distance"). */
export interface VisitFieldsOfRequest {
  node_demands?: number[];
  node_pickups?: number[];
  shipments?: { pickup: number; delivery: number; amount: number; max_ride_minutes?: number }[];
  node_load_types?: (string | null)[] | null;
  incompatible_load_types?: string[][] | null;
  same_vehicle_groups?: number[][] | null;
  node_time_windows?: number[][] | null;
  node_service_time?: number[] | null;
  vehicle_reload_nodes?: (number[] | null)[] | null;
  base_start_time?: number[];
}

interface VisitResult {
  routes: Record<string, number[]>;
  time_windows?: Record<string, string[][]>;
  unassigned?: { node: number; reason: string }[];
}

/** Minutes after base_start_time of an HH:MM:SS clock time. */
function minutesOf(clock: string, base: number[]): number {
  const [h, m, s] = clock.split(":").map(Number) as [number, number, number];
  const [bh = 9, bm = 0, bs = 0] = base;
  return (h * 3600 + m * 60 + s - (bh * 3600 + bm * 60 + bs)) / 60;
}

/** Times in the result are whole seconds. */
const SECOND = 1 / 60 + 1e-9;

/**
 * An independent, deliberately naive check of the visit rules on a result, from the request
 * alone: every shipment with max_ride_minutes rides at most that long (from the end of the pickup's
 * service, its arrival or window opening plus service time, to the start of the delivery's, read
 * off `time_windows` to the second); on every leg of every route no two goods of an incompatible
 * pair are on board (deliveries from the trip's start to their stop, pickups from their stop to
 * the trip's end, shipments between their stops; a reload stop empties the vehicle); every
 * same-vehicle group on one route or wholly unassigned, its unassigned stops with reason
 * `same_vehicle_group` unless a proof of their own names them.
 */
export function checkVisitRules(request: VisitFieldsOfRequest, result: VisitResult): void {
  const base = request.base_start_time ?? [9, 0, 0];
  const shipmentOf = new Map<number, { pickup: number; delivery: number; max_ride_minutes?: number }>();
  for (const s of request.shipments ?? []) {
    shipmentOf.set(s.pickup, s);
    shipmentOf.set(s.delivery, s);
  }
  const routeOf = new Map<number, string>();
  for (const [label, route] of Object.entries(result.routes)) {
    const v = Number(label.replace("Vehicle ", ""));
    const reloads = new Set(request.vehicle_reload_nodes?.[v] ?? []);
    const stops = route.slice(1, -1);
    stops.forEach((node) => {
      if (!reloads.has(node)) routeOf.set(node, label);
    });
    const times = result.time_windows?.[label];
    for (const s of request.shipments ?? []) {
      if (s.max_ride_minutes === undefined || !stops.includes(s.pickup) || !times) continue;
      const at = (node: number): number => {
        const i = route.indexOf(node);
        return Math.max(minutesOf(times[i]![0]!, base), request.node_time_windows![node]![0]!);
      };
      const ride = at(s.delivery) - (at(s.pickup) + request.node_service_time![s.pickup]!);
      expect(ride, `${label}: shipment ${s.pickup} -> ${s.delivery} rides within ${s.max_ride_minutes} min`).to.be.at.most(
        s.max_ride_minutes + SECOND,
      );
    }
    checkGoods(request, label, stops, reloads, shipmentOf);
  }
  const unassigned = new Map((result.unassigned ?? []).map((u) => [u.node, u.reason]));
  (request.same_vehicle_groups ?? []).forEach((group, g) => {
    const labels = new Set(group.map((node) => routeOf.get(node) ?? "unassigned"));
    expect(labels.size, `group ${g} (${group.join(", ")}) on one vehicle or left out whole: ${[...labels].join(", ")}`).to.equal(1);
    if (labels.has("unassigned"))
      for (const node of group) expect(unassigned.has(node), `group ${g}'s node ${node} listed in unassigned`).to.equal(true);
  });
}

function checkGoods(
  request: VisitFieldsOfRequest,
  label: string,
  stops: number[],
  reloads: Set<number>,
  shipmentOf: Map<number, { pickup: number; delivery: number }>,
): void {
  const pairs = request.incompatible_load_types ?? [];
  const types = request.node_load_types;
  if (pairs.length === 0 || !types) return;
  const clash = (a: string | null | undefined, b: string | null | undefined): boolean =>
    a != null && b != null && pairs.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  const isPickup = (node: number): boolean => (request.node_pickups?.[node] ?? 0) > 0 && (request.node_demands?.[node] ?? 0) <= 0;
  const isBoth = (node: number): boolean => (request.node_pickups?.[node] ?? 0) > 0 && (request.node_demands?.[node] ?? 0) > 0;
  const trip = (k: number): number => stops.slice(0, k).filter((node) => reloads.has(node)).length;
  for (let leg = 0; leg <= stops.length; leg++) {
    const goods: (string | null | undefined)[] = [];
    stops.forEach((node, k) => {
      if (reloads.has(node) || trip(k) !== trip(leg)) return;
      const s = shipmentOf.get(node);
      if (s) {
        if (node === s.pickup && k < leg && stops.indexOf(s.delivery) >= leg) goods.push(types[s.pickup], types[s.delivery]);
      } else if (isBoth(node) || (k >= leg && !isPickup(node)) || (k < leg && isPickup(node))) goods.push(types[node]);
    });
    for (let i = 0; i < goods.length; i++)
      for (let j = i + 1; j < goods.length; j++)
        expect(clash(goods[i], goods[j]), `${label}: ${goods[i]} with ${goods[j]} on board on leg ${leg}`).to.equal(false);
  }
}
