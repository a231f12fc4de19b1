/** Small, deterministic solve requests shared by tests (most solver tests build their own). */

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

import type { PlainCvrpRequest } from "../../checker/check-result.js";

export type { PlainCvrpRequest };

export interface CvrpOptions {
  customers: number;
  vehicles: number;
  capacity: number;
  seed?: number;
  withPositions?: boolean;
  matrix?: boolean;
}

/** A depot at node 0 and `customers` customers on a 100 x 100 grid; integer demands 1..9. */
export function cvrpRequest(o: CvrpOptions): Record<string, unknown> & PlainCvrpRequest {
  const rand = lcg(o.seed ?? 7);
  const n = o.customers + 1;
  const pos = Array.from({ length: n }, (_, i) => (i === 0 ? [50, 50] : [Math.round(rand() * 100), Math.round(rand() * 100)]));
  const matrix = o.matrix === false ? [] : pos.map((a) => pos.map((b) => Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!))));
  return {
    name: `cvrp-${o.customers}`,
    node_num: n,
    vehicle_num: o.vehicles,
    distance_matrix: matrix,
    ...(o.withPositions ? { node_positions: pos } : {}),
    start_nodes: Array(o.vehicles).fill(0),
    end_nodes: Array(o.vehicles).fill(0),
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 9))),
    vehicles_capacity: Array(o.vehicles).fill(o.capacity),
  };
}
