/**
 * Random CVRPs in the manner of Arnold, Gendreau and Sorensen (2019)'s XXL instances, to check the
 * large strategy on instances that are not the shared seven: a 2,000 x 2,000 plane, customers
 * around a few towns (exponentially decaying attraction) plus a scattered share, a central or an
 * eccentric depot, small demands (1-3) and a capacity that makes routes of 10 to 120 customers
 * on average, k = ceil(total demand / capacity) + 3 vehicles. The requests carry `node_positions`
 * only (real-valued Euclidean distances, no matrix), as the XXL requests do.
 * `node --import tsx bench/xxl-like-instance.ts DIR [--count K] [--seed N] [--customers N]` writes them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { SolveRequestInput } from "../src/problem/request-types.js";

export function generateXxlLike(index: number, seedBase: number, fixedCustomers?: number): { name: string; request: SolveRequestInput } {
  let s = (seedBase * 7919 + index * 104_729 + 17) >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const customers = fixedCustomers ?? int(3000, 12000);
  const eccentric = rand() < 0.5;
  const depot: [number, number] = eccentric ? [int(0, 400), int(0, 2000)] : [int(800, 1200), int(800, 1200)];
  const towns: [number, number, number][] = Array.from({ length: int(5, 30) }, () => [int(0, 2000), int(0, 2000), 20 + 120 * rand()]);
  const scattered = 0.1 + 0.3 * rand();
  const positions: [number, number][] = [depot];
  for (let c = 0; c < customers; c++) {
    if (rand() < scattered) {
      positions.push([int(0, 2000), int(0, 2000)]);
      continue;
    }
    const [x, y, spread] = towns[int(0, towns.length - 1)]!;
    const radius = -spread * Math.log(1 - rand());
    const angle = 2 * Math.PI * rand();
    positions.push([
      Math.min(2000, Math.max(0, Math.round(x + radius * Math.cos(angle)))),
      Math.min(2000, Math.max(0, Math.round(y + radius * Math.sin(angle)))),
    ]);
  }
  const demands = positions.map((_, i) => (i === 0 ? 0 : int(1, 3)));
  const total = demands.reduce((a, b) => a + b, 0);
  const routeSize = rand() < 0.5 ? int(10, 25) : int(60, 120);
  const capacity = Math.ceil((routeSize * total) / customers);
  const vehicles = Math.ceil(total / capacity) + 3;
  const n = positions.length;
  return {
    name: `xxl-like${index}-n${customers}-${eccentric ? "E" : "C"}-r${routeSize}`,
    request: {
      objective: "min_total_distance",
      node_num: n,
      vehicle_num: vehicles,
      node_positions: positions,
      distance_matrix: [],
      start_nodes: Array(vehicles).fill(0),
      end_nodes: Array(vehicles).fill(0),
      node_demands: demands,
      vehicles_capacity: Array(vehicles).fill(capacity),
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { count: { type: "string", default: "3" }, seed: { type: "string", default: "2026" }, customers: { type: "string" } },
  });
  const dir = positionals[0] ?? "tmp/xxl-like";
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < Number(values.count); i++) {
    const { name, request } = generateXxlLike(i, Number(values.seed), values.customers ? Number(values.customers) : undefined);
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(request));
    console.log(join(dir, `${name}.json`));
  }
}
