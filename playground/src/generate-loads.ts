import type { SolveRequest } from "./types.js";

/** Which of the pickup-and-delivery fields (constraints.md, second table) a generated problem gets. */
export interface LoadOptions {
  /** Returns collected at about a third of the customers (`node_pickups`). */
  pickups?: boolean;
  /** About a fifth of the customers paired into `shipments` (pickup at one, delivery at the other). */
  shipments?: boolean;
  /** A second load dimension (volume): `node_extra_demands` and `vehicles_extra_capacity`. */
  volume?: boolean;
}

/** A seeded generator of its own, so the base problem is the same with these options on or off. */
function random(seed: number): () => number {
  let a = (seed ^ 0x9e3779b9) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Adds pickups, shipments and a volume dimension to a generated problem (in place), feasible
 * with room to spare: shipment nodes lose their delivery, and the capacity grows by half with
 * pickups or shipments on board, since a vehicle then carries loads both ways.
 */
export function addLoadFields(request: SolveRequest, options: LoadOptions, seed: number): void {
  if (!options.pickups && !options.shipments && !options.volume) return;
  const rand = random(seed);
  const depots = new Set([...request.start_nodes, ...request.end_nodes]);
  const customers = Array.from({ length: request.node_num }, (_, i) => i).filter((i) => !depots.has(i));
  const demands = request.node_demands;
  const inShipment = new Set<number>();
  if (options.shipments) {
    const shipments: { pickup: number; delivery: number; amount: number }[] = [];
    const pairs = Math.max(1, Math.floor(customers.length / 10));
    for (let k = 0; k < pairs && 2 * k + 1 < customers.length; k++) {
      const pickup = customers[2 * k]!;
      const delivery = customers[2 * k + 1]!;
      shipments.push({ pickup, delivery, amount: 1 + Math.floor(rand() * 9) });
      demands[pickup] = demands[delivery] = 0;
      inShipment.add(pickup).add(delivery);
    }
    request.shipments = shipments;
  }
  if (options.pickups) {
    request.node_pickups = demands.map((_, i) => (depots.has(i) || inShipment.has(i) || rand() > 0.33 ? 0 : 1 + Math.floor(rand() * 9)));
  }
  if (options.pickups || options.shipments) request.vehicles_capacity = request.vehicles_capacity.map((c) => Math.ceil(c * 1.5));
  if (options.volume) {
    const volumes = demands.map((_, i) => (depots.has(i) || inShipment.has(i) ? 0 : 1 + Math.floor(rand() * 5)));
    const total = volumes.reduce((a, b) => a + b, 0);
    const perVehicle = Math.max(5, Math.ceil(total / (request.vehicle_num * 0.7)));
    request.node_extra_demands = volumes.map((v) => [v]);
    request.vehicles_extra_capacity = request.vehicles_capacity.map(() => [perVehicle]);
  }
  const kinds = [options.pickups && "pickups", options.shipments && "shipments", options.volume && "volume"].filter(Boolean);
  request.name = `${request.name ?? "Random"}, ${kinds.join(", ")}`;
}
