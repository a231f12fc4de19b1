/**
 * One random CVRP in the manner of Uchoa et al. (2017)'s X generator (see bench/x-like.ts), as a
 * solve request: the same instance for the same (index, seed base, customers).
 */
import type { SolveRequestInput } from "../src/problem/request-types.js";

/**
 * `routeSizes` [lo, hi]: draw the route-size class (customers a route would hold at the average
 * demand) from lo..hi instead of X's 3..25, from the same random draw, so that everything else
 * (positions, demands) stays the instance it would have been.
 */
export function generateXLike(
  index: number,
  seedBase: number,
  fixedCustomers?: number,
  routeSizes?: readonly [number, number],
): { name: string; request: SolveRequestInput } {
  let s = (seedBase * 7919 + index * 104_729) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const drawn = int(301, 1000);
  const customers = fixedCustomers ?? drawn;
  const depotKind = ["C", "E", "R"][int(0, 2)]!;
  const placement = ["R", "C", "RC"][int(0, 2)]!;
  const demandKind = ["U", "S", "L", "M"][int(0, 3)]!;
  const routeSize = routeSizes ? int(routeSizes[0], routeSizes[1]) : int(3, 25);
  const depot: [number, number] = depotKind === "C" ? [500, 500] : depotKind === "E" ? [0, 0] : [int(0, 1000), int(0, 1000)];
  const positions: [number, number][] = [depot];
  const seeds: [number, number][] = Array.from({ length: int(3, 8) }, () => [int(0, 1000), int(0, 1000)]);
  const clustered = placement === "C" ? customers : placement === "RC" ? Math.floor(customers / 2) : 0;
  for (let c = 0; c < customers; c++) {
    if (c < clustered) {
      // Around a random seed, at an exponentially distributed distance (Uchoa's attraction decay).
      const [x, y] = seeds[int(0, seeds.length - 1)]!;
      const radius = -40 * Math.log(1 - rand());
      const angle = 2 * Math.PI * rand();
      positions.push([
        Math.min(1000, Math.max(0, Math.round(x + radius * Math.cos(angle)))),
        Math.min(1000, Math.max(0, Math.round(y + radius * Math.sin(angle)))),
      ]);
    } else positions.push([int(0, 1000), int(0, 1000)]);
  }
  const demands = positions.map((_, i) => {
    if (i === 0) return 0;
    if (demandKind === "U") return 1;
    if (demandKind === "S") return int(1, 10);
    if (demandKind === "L") return int(5, 100);
    return rand() < 0.8 ? int(1, 10) : int(50, 100);
  });
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity = Math.max(Math.max(...demands), Math.ceil((routeSize * total) / customers));
  const vehicles = Math.ceil(total / capacity) + 3;
  const n = positions.length;
  const name = `xl${index}-n${n}-${depotKind}${placement}${demandKind}-r${routeSize}`;
  return {
    name,
    request: {
      objective: "min_total_distance",
      node_num: n,
      vehicle_num: vehicles,
      distance_matrix: positions.map((a) => positions.map((b) => Math.round(Math.hypot(a[0] - b[0], a[1] - b[1])))),
      start_nodes: Array(vehicles).fill(0),
      end_nodes: Array(vehicles).fill(0),
      node_demands: demands,
      vehicles_capacity: Array(vehicles).fill(capacity),
    },
  };
}
