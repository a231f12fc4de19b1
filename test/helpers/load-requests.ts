import type { SolveRequest } from "../../clients/typescript/src/index.js";
import { cvrpRequest } from "./requests.js";

export type LoadKind = "pickups" | "backhauls" | "shipments" | "dimensions" | "all";

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * A 16-customer request (5 vehicles of capacity 30) that uses one capability of the second table
 * of constraints.md, or all of them, typed by the SDK's own SolveRequest: a field the document
 * (and so the SDK) lacked would not compile. Each is built so that ignoring the rule is tempting:
 * pickups as large as deliveries, every shipment's stops far apart, a second dimension tighter
 * than the first.
 */
export function loadRequest(kind: LoadKind, seed = 11): SolveRequest {
  const base = cvrpRequest({ customers: 16, vehicles: 4, capacity: 30, seed });
  const rand = lcg(seed * 7 + 1);
  const n = base.node_num;
  const amount = () => 1 + Math.floor(rand() * 9);
  const demands = base.node_demands.slice();
  const request: SolveRequest = {
    name: `loads-${kind}`,
    node_num: n,
    vehicle_num: 5,
    distance_matrix: base.distance_matrix,
    start_nodes: [0, 0, 0, 0, 0],
    end_nodes: [0, 0, 0, 0, 0],
    node_demands: demands,
    vehicles_capacity: [30, 30, 30, 30, 30],
    time_limit_seconds: 2,
  };
  const all = kind === "all";
  const withShipments: boolean = kind === "shipments" || all;
  if (withShipments) {
    // Nodes 1..6 become three shipments 1 -> 4, 2 -> 5, 3 -> 6.
    request.shipments = [1, 2, 3].map((pickup) => ({ pickup, delivery: pickup + 3, amount: 5 + Math.floor(rand() * 10) }));
    for (let i = 1; i <= 6; i++) demands[i] = 0;
  }
  if (kind === "pickups" || kind === "backhauls" || all) {
    const backhauls = kind === "backhauls" || all;
    request.node_pickups = demands.map((_, i) => {
      if (i === 0 || (withShipments && i <= 6)) return 0;
      if (backhauls && i % 2 === 0) {
        demands[i] = 0; // a backhaul customer: only returns
        return amount();
      }
      return backhauls ? 0 : amount();
    });
    if (backhauls) request.pickups_after_deliveries = true;
  }
  if (kind === "dimensions" || all) {
    request.node_extra_demands = demands.map((_, i) => (i === 0 || (withShipments && i <= 6) ? [0, 0] : [amount(), 1]));
    request.vehicles_extra_capacity = [
      [20, 5],
      [20, 5],
      [25, 6],
      [25, 6],
      [25, 6],
    ];
  }
  return request;
}
