/**
 * Multi-trip VRPTWs with release times in the manner of Yang (2023, 2024), the shared MTVRPTWR
 * set's sources, to check the several-trips search on instances nobody tuned it on: a type-2
 * Gehring-Homberger-like base (gh-like.ts: C2, R2 or RC2 in turn, 100 or 200 customers on a
 * 100 x 100 square, long horizon, wide windows) whose capacity drops to 100, so that a vehicle
 * makes several trips; 8 vehicles for 100 customers and 20 for 200 (Yang's fleets), each free to
 * reload at the depot;
 * and release times (the minute a customer's goods reach the depot) for about half the
 * customers, drawn as R x U(0.5, 1) of the latest minute the customer can still be reached from
 * the depot, R cycling 0.25, 0.5 and 0.75 (the shared set's values), so that every customer stays
 * reachable and the releases bind. There is no best known: side-by-side.ts gives gaps to the
 * better of the two solvers.
 */
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { ghLike } from "./gh-like.js";

const CAPACITY = 100;
/**
 * Solomon's and Gehring and Homberger's 200-customer square: 100 customers on gh-like's n / 2
 * would leave C2 too short a day for its service times.
 */
const SIDE = 100;
const RELEASE_RATIOS = [0.25, 0.5, 0.75];

export function mtLike(index: number, seedBase: number): { name: string; request: SolveRequestInput } {
  const customers = Math.floor(index / 3) % 2 === 0 ? 100 : 200;
  // gh-like's indices 3, 4 and 5 (plus multiples of 6) are its type-2 C, R and RC instances.
  const base = ghLike(3 + (index % 3) + 6 * Math.floor(index / 3), seedBase, [customers], () => SIDE);
  const request = base.request;
  const vehicles = customers === 100 ? 8 : 20;
  let s = (seedBase * 104_723 + index * 7_919 + 17) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const ratio = RELEASE_RATIOS[index % RELEASE_RATIOS.length]!;
  const matrix = request.distance_matrix!;
  const windows = request.node_time_windows!;
  const releases = windows.map((window, node) => {
    if (node === 0 || rand() < 0.5) return 0;
    const latestLeave = window[1]! - matrix[0]![node]!;
    return Math.max(0, Math.floor(ratio * (0.5 + rand() / 2) * latestLeave));
  });
  return {
    name: `${base.name.replace(/^gl/, "mt")}-r${ratio}`,
    request: {
      ...request,
      vehicle_num: vehicles,
      start_nodes: Array(vehicles).fill(0),
      end_nodes: Array(vehicles).fill(0),
      vehicles_capacity: Array(vehicles).fill(CAPACITY),
      vehicle_speeds: Array(vehicles).fill(1),
      vehicle_reload_nodes: Array.from({ length: vehicles }, () => [0]),
      node_release_times: releases,
    },
  };
}
