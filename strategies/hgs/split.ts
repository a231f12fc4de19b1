import { routeCost, type HgsModel, type Penalties } from "./model.js";

/**
 * Optimal split of a giant tour into at most `vehicles` consecutive routes (Prins 2004, with
 * the limited-fleet layering of Vidal's HGS), on the penalised cost. Routes whose load exceeds
 * `loadFactor` x capacity are not considered, which bounds the inner loop; when that leaves no
 * split at all the bound is lifted.
 */
export function split(m: HgsModel, pen: Penalties, tour: Int32Array, loadFactor = 1.5): number[][] {
  // As in HGS: the unlimited-fleet split (one layer) first; the layered one only when it needs
  // more routes than there are vehicles.
  const free = splitUnlimited(m, pen, tour, loadFactor);
  if (free && free.length <= m.vehicles) {
    while (free.length < m.vehicles) free.push([]);
    return free;
  }
  return splitBounded(m, pen, tour, loadFactor) ?? splitBounded(m, pen, tour, Number.POSITIVE_INFINITY)!;
}

function splitBounded(m: HgsModel, pen: Penalties, tour: Int32Array, loadFactor: number): number[][] | null {
  const n = m.nodeCount;
  const size = tour.length;
  const depot = m.depot;
  const chain = new Float64Array(size + 1);
  const load = new Float64Array(size + 1);
  const service = new Float64Array(size + 1);
  for (let k = 1; k <= size; k++) {
    const c = tour[k - 1]!;
    chain[k] = k === 1 ? 0 : chain[k - 1]! + m.dist[tour[k - 2]! * n + c]!;
    load[k] = load[k - 1]! + m.demand[c]!;
    service[k] = service[k - 1]! + m.service[c]!;
  }
  const maxLoad = loadFactor * m.capacity;
  const layers = Math.min(m.vehicles, size);
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
        const cost = base + routeCost(m, pen, j - i + 1, distance, routeLoad, service[j]! - service[i - 1]!);
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
  if (size === 0) return Array.from({ length: m.vehicles }, () => []);
  if (bestLayer < 0) return null;
  const routes: number[][] = [];
  let j = size;
  for (let k = bestLayer; k >= 1; k--) {
    const i = pred[k]![j]!;
    routes.push(Array.from(tour.subarray(i, j)));
    j = i;
  }
  routes.reverse();
  while (routes.length < m.vehicles) routes.push([]);
  return routes;
}

/** Split with as many routes as it likes (Prins 2004, O(n x route length)); null when none fits the bound. */
function splitUnlimited(m: HgsModel, pen: Penalties, tour: Int32Array, loadFactor: number): number[][] | null {
  const n = m.nodeCount;
  const size = tour.length;
  const depot = m.depot;
  const chain = new Float64Array(size + 1);
  const load = new Float64Array(size + 1);
  const service = new Float64Array(size + 1);
  for (let k = 1; k <= size; k++) {
    const c = tour[k - 1]!;
    chain[k] = k === 1 ? 0 : chain[k - 1]! + m.dist[tour[k - 2]! * n + c]!;
    load[k] = load[k - 1]! + m.demand[c]!;
    service[k] = service[k - 1]! + m.service[c]!;
  }
  const maxLoad = loadFactor * m.capacity;
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
      const cost = base + routeCost(m, pen, j - i + 1, distance, routeLoad, service[j]! - service[i - 1]!);
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
