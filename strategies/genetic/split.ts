import { CostEvaluator } from "../search/cost-evaluator.js";
import { Penalties } from "../search/identical-vehicles-model.js";
import type { ProblemData } from "../search/problem-data.js";
import { TimeSegment } from "../search/time-segment.js";

const segment = new TimeSegment();
const closed = new TimeSegment();

/**
 * Optimal split of a giant tour into at most `vehicles` consecutive routes (Prins 2004, with
 * the limited-fleet layering of Vidal's HGS), on the penalised cost. Routes whose load exceeds
 * `loadFactor` x capacity are not considered, which bounds the inner loop; when that leaves no
 * split at all the bound is lifted.
 */
export function split(m: ProblemData, pen: Penalties, tour: Int32Array, loadFactor = 1.5): number[][] {
  const costs = new CostEvaluator(m);
  costs.penalties = pen;
  if (m.windows) {
    const free = splitWindows(m, costs, tour, loadFactor, 0);
    if (free && free.length <= m.routes) {
      while (free.length < m.routes) free.push([]);
      return free;
    }
    const layers = Math.min(m.routes, tour.length);
    return splitWindows(m, costs, tour, loadFactor, layers) ?? splitWindows(m, costs, tour, Number.POSITIVE_INFINITY, layers)!;
  }
  // As in HGS: the unlimited-fleet split (one layer) first; the layered one only when it needs
  // more routes than there are vehicles.
  const free = splitUnlimited(m, costs, tour, loadFactor);
  if (free && free.length <= m.routes) {
    while (free.length < m.routes) free.push([]);
    return free;
  }
  return splitBounded(m, costs, tour, loadFactor) ?? splitBounded(m, costs, tour, Number.POSITIVE_INFINITY)!;
}

/**
 * Prefix sums along the giant tour (1-based: entry k covers its first k customers): the
 * distance chained between consecutive customers, their load and their service minutes.
 */
function tourPrefixes(m: ProblemData, tour: Int32Array): { chain: Float64Array; load: Float64Array; service: Float64Array } {
  const n = m.nodeCount;
  const size = tour.length;
  const chain = new Float64Array(size + 1);
  const load = new Float64Array(size + 1);
  const service = new Float64Array(size + 1);
  for (let k = 1; k <= size; k++) {
    const c = tour[k - 1]!;
    chain[k] = k === 1 ? 0 : chain[k - 1]! + m.dist[tour[k - 2]! * n + c]!;
    load[k] = load[k - 1]! + m.demand[c]!;
    service[k] = service[k - 1]! + m.service[c]!;
  }
  return { chain, load, service };
}

function splitBounded(m: ProblemData, costs: CostEvaluator, tour: Int32Array, loadFactor: number): number[][] | null {
  const n = m.nodeCount;
  const size = tour.length;
  const depot = m.start[0]!;
  const { chain, load, service } = tourPrefixes(m, tour);
  const maxLoad = loadFactor * m.capacity[0]!;
  const layers = Math.min(m.routes, size);
  // potential[k][j]: best cost of serving tour[0..j) with k routes; pred: where the last route began.
  const potential = Array.from({ length: layers + 1 }, () => new Float64Array(size + 1).fill(Number.POSITIVE_INFINITY));
  const pred = Array.from({ length: layers + 1 }, () => new Int32Array(size + 1));
  potential[0]![0] = 0;
  for (let k = 1; k <= layers; k++) {
    const prevLayer = potential[k - 1]!;
    const layer = potential[k]!;
    const back = pred[k]!;
    for (let j = 1; j <= size; j++) {
      const last = tour[j - 1]!;
      let best = Number.POSITIVE_INFINITY;
      let bestFrom = -1;
      for (let i = j; i >= 1; i--) {
        const routeLoad = load[j]! - load[i - 1]!;
        if (routeLoad > maxLoad) break;
        const base = prevLayer[i - 1]!;
        if (base === Number.POSITIVE_INFINITY) continue;
        const first = tour[i - 1]!;
        const distance = m.dist[depot * n + first]! + chain[j]! - chain[i]! + m.dist[last * n + depot]!;
        const cost = base + costs.fromTotals(0, j - i + 1, distance, routeLoad, service[j]! - service[i - 1]!);
        if (cost < best) {
          best = cost;
          bestFrom = i - 1;
        }
      }
      layer[j] = best;
      back[j] = bestFrom;
    }
  }
  let bestLayer = -1;
  for (let k = 1; k <= layers; k++) {
    if (potential[k]![size]! < (bestLayer < 0 ? Number.POSITIVE_INFINITY : potential[bestLayer]![size]!)) bestLayer = k;
  }
  if (size === 0) return Array.from({ length: m.routes }, () => []);
  if (bestLayer < 0) return null;
  const routes: number[][] = [];
  let j = size;
  for (let k = bestLayer; k >= 1; k--) {
    const i = pred[k]![j]!;
    routes.push(Array.from(tour.subarray(i, j)));
    j = i;
  }
  routes.reverse();
  while (routes.length < m.routes) routes.push([]);
  return routes;
}

/** Split with as many routes as it likes (Prins 2004, O(n x route length)); null when none fits the bound. */
function splitUnlimited(m: ProblemData, costs: CostEvaluator, tour: Int32Array, loadFactor: number): number[][] | null {
  const n = m.nodeCount;
  const size = tour.length;
  const depot = m.start[0]!;
  const { chain, load, service } = tourPrefixes(m, tour);
  const maxLoad = loadFactor * m.capacity[0]!;
  const potential = new Float64Array(size + 1).fill(Number.POSITIVE_INFINITY);
  const pred = new Int32Array(size + 1);
  potential[0] = 0;
  for (let j = 1; j <= size; j++) {
    const last = tour[j - 1]!;
    const back = m.dist[last * n + depot]!;
    let best = Number.POSITIVE_INFINITY;
    let bestFrom = -1;
    for (let i = j; i >= 1; i--) {
      const routeLoad = load[j]! - load[i - 1]!;
      if (routeLoad > maxLoad) break;
      const base = potential[i - 1]!;
      if (base === Number.POSITIVE_INFINITY) continue;
      const distance = m.dist[depot * n + tour[i - 1]!]! + chain[j]! - chain[i]! + back;
      const cost = base + costs.fromTotals(0, j - i + 1, distance, routeLoad, service[j]! - service[i - 1]!);
      if (cost < best) {
        best = cost;
        bestFrom = i - 1;
      }
    }
    potential[j] = best;
    pred[j] = bestFrom;
  }
  if (potential[size] === Number.POSITIVE_INFINITY) return null;
  const routes: number[][] = [];
  for (let j = size; j > 0; j = pred[j]!) routes.push(Array.from(tour.subarray(pred[j]!, j)));
  routes.reverse();
  return routes;
}

/**
 * Split under time windows: each candidate route tour[i..j] is priced with its time segment,
 * extended one customer at a time from each start i (O(n x route length) per layer). `layers`
 * 0: as many routes as it likes; otherwise at most that many. Null when none fits the load bound.
 */
function splitWindows(m: ProblemData, costs: CostEvaluator, tour: Int32Array, loadFactor: number, layers: number): number[][] | null {
  const w = m.windows!;
  const n = m.nodeCount;
  const size = tour.length;
  const depot = m.start[0]!;
  if (size === 0) return Array.from({ length: m.routes }, () => []);
  const maxLoad = loadFactor * m.capacity[0]!;
  const speed = m.speed[0]!;
  const rows = layers === 0 ? 1 : layers;
  // potential[k][j]: best cost of serving tour[0..j) with k + 1 routes (any number when layers is 0).
  const potential = Array.from({ length: rows }, () => new Float64Array(size + 1).fill(Number.POSITIVE_INFINITY));
  const pred = Array.from({ length: rows }, () => new Int32Array(size + 1).fill(-1));
  for (let k = 0; k < rows; k++) {
    const layer = potential[k]!;
    const back = pred[k]!;
    const from = layers === 0 ? layer : k === 0 ? null : potential[k - 1]!;
    for (let i = 0; i < size; i++) {
      const base = from === null ? (i === 0 ? 0 : Number.POSITIVE_INFINITY) : i === 0 && layers === 0 ? 0 : from[i]!;
      if (base === Number.POSITIVE_INFINITY) continue;
      let load = 0;
      let service = 0;
      let distance = m.dist[depot * n + tour[i]!]!;
      segment.setNode(depot, w.start[depot]!, w.end[depot]!, 0);
      for (let j = i; j < size; j++) {
        const c = tour[j]!;
        load += m.demand[c]!;
        if (load > maxLoad) break;
        service += m.service[c]!;
        if (j > i) distance += m.dist[tour[j - 1]! * n + c]!;
        segment.append(m.dist[segment.last * n + c]! / speed, m.service[c]!, 0, w.start[c]!, w.end[c]!, c);
        closed.set(segment.duration, segment.timeWarp, segment.earliest, segment.latest, segment.first, segment.last);
        closed.append(m.dist[c * n + depot]! / speed, 0, 0, w.start[depot]!, w.end[depot]!, depot);
        const total = distance + m.dist[c * n + depot]!;
        const cost = base + costs.fromTotals(0, j - i + 1, total, load, service) + costs.timePrice(closed, w.maxDuration);
        if (cost < layer[j + 1]!) {
          layer[j + 1] = cost;
          back[j + 1] = i;
        }
      }
    }
  }
  let bestLayer = -1;
  for (let k = 0; k < rows; k++) {
    if (potential[k]![size]! < (bestLayer < 0 ? Number.POSITIVE_INFINITY : potential[bestLayer]![size]!)) bestLayer = k;
  }
  if (bestLayer < 0) return null;
  const routes: number[][] = [];
  let j = size;
  let k = bestLayer;
  while (j > 0) {
    const i = pred[k]![j]!;
    routes.push(Array.from(tour.subarray(i, j)));
    j = i;
    if (layers > 0) k--;
  }
  routes.reverse();
  if (layers > 0) while (routes.length < m.routes) routes.push([]);
  return routes;
}
