import { readFileSync } from "node:fs";
import type { SolveRequestInput } from "../src/problem/request-types.js";

/**
 * A CVRPLIB `.vrp` (EUC_2D, one depot) as a solve request with the TSPLIB convention: a matrix of
 * Euclidean distances rounded to the nearest integer, `vehicles` identical vehicles at the depot.
 */
export function vrplibRequest(path: string, name: string, vehicles: number): SolveRequestInput {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .map((l) => l.trim());
  const capacity = Number(lines.find((l) => l.startsWith("CAPACITY"))!.split(":")[1]);
  const section = (title: string) => {
    const from = lines.findIndex((l) => l.startsWith(title)) + 1;
    const rows: number[][] = [];
    for (let i = from; i < lines.length && /^\d/.test(lines[i]!); i++) rows.push(lines[i]!.split(/\s+/).map(Number));
    return rows;
  };
  const positions = section("NODE_COORD_SECTION").map((r) => [r[1]!, r[2]!]);
  const demands = section("DEMAND_SECTION").map((r) => r[1]!);
  const depot = Number(lines[lines.findIndex((l) => l.startsWith("DEPOT_SECTION")) + 1]) - 1;
  if (depot !== 0) throw new Error(`${name}: the depot must be the first node`);
  const n = positions.length;
  const matrix = positions.map((a) => positions.map((b) => Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!))));
  return {
    name,
    objective: "min_total_distance",
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: matrix,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array(vehicles).fill(capacity),
  } as SolveRequestInput;
}
