import { euclidean, hasDenseMatrix, type CompiledProblem } from "./problem.js";

/**
 * For every customer, its k nearest other customers (symmetrised distance): the granular
 * neighbourhood that keeps insertion and local search near-linear on large problems.
 */
const cache = new WeakMap<CompiledProblem, Map<number, Int32Array[]>>();

export function nearestNeighbours(p: CompiledProblem, k: number): Int32Array[] {
  let perProblem = cache.get(p);
  if (!perProblem) cache.set(p, (perProblem = new Map()));
  const cached = perProblem.get(k);
  if (cached) return cached;
  // A longer list already computed holds this one as its prefix (same nearest-first order).
  for (const [longer, lists] of perProblem) {
    if (longer < k) continue;
    const prefix = lists.map((list) => list.subarray(0, Math.min(k, list.length)));
    perProblem.set(k, prefix);
    return prefix;
  }
  const computed = hasDenseMatrix(p) ? computeNearest(p, k) : computeNearestOnGrid(p, k);
  perProblem.set(k, computed);
  return computed;
}

/**
 * Top-k selection by insertion into a sorted buffer: O(n) per customer for small k instead of a
 * full sort. Ties keep customer order, exactly as a stable sort would.
 */
function computeNearest(p: CompiledProblem, k: number): Int32Array[] {
  const n = p.nodeCount;
  const customers = p.customers;
  const lists: Int32Array[] = new Array(n);
  const count = Math.min(k, Math.max(0, customers.length - 1));
  const keys = new Float64Array(count + 1);
  const ids = new Int32Array(count + 1);
  for (const c of customers) {
    let size = 0;
    for (let t = 0; t < customers.length; t++) {
      const o = customers[t]!;
      if (o === c) continue;
      const key = p.dist[c * n + o]! + p.dist[o * n + c]!;
      if (size === count && !(key < keys[size - 1]!)) continue;
      let at = size < count ? size : size - 1;
      while (at > 0 && keys[at - 1]! > key) {
        keys[at] = keys[at - 1]!;
        ids[at] = ids[at - 1]!;
        at--;
      }
      keys[at] = key;
      ids[at] = o;
      if (size < count) size++;
    }
    lists[c] = ids.slice(0, size);
  }
  return lists;
}

export function isSymmetric(p: CompiledProblem): boolean {
  // Without a matrix, distances are Euclidean from coordinates: symmetric by construction.
  if (!hasDenseMatrix(p)) return true;
  const n = p.nodeCount;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(p.dist[i * n + j]! - p.dist[j * n + i]!) > 1e-9) return false;
  return true;
}

/**
 * The same lists as computeNearest (same order, ties by customer index) for problems without a
 * matrix, in O(n k) instead of O(n^2): customers are bucketed in a uniform grid of about two per
 * cell, and each customer scans rings of cells around its own until no unscanned cell can hold
 * anything nearer than its k-th neighbour so far.
 */
function computeNearestOnGrid(p: CompiledProblem, k: number): Int32Array[] {
  const coords = p.coords!;
  const customers = p.customers;
  const lists: Int32Array[] = new Array(p.nodeCount);
  const count = Math.min(k, Math.max(0, customers.length - 1));
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const c of customers) {
    minX = Math.min(minX, coords[2 * c]!);
    maxX = Math.max(maxX, coords[2 * c]!);
    minY = Math.min(minY, coords[2 * c + 1]!);
    maxY = Math.max(maxY, coords[2 * c + 1]!);
  }
  const width = Math.max(maxX - minX, 1e-9);
  const height = Math.max(maxY - minY, 1e-9);
  const cell = Math.max(Math.sqrt((width * height) / Math.max(1, customers.length / 2)), 1e-9);
  const gx = Math.min(4096, Math.floor(width / cell) + 1);
  const gy = Math.min(4096, Math.floor(height / cell) + 1);
  const cellW = width / gx + 1e-12;
  const cellH = height / gy + 1e-12;
  const cellX = (c: number) => Math.min(gx - 1, Math.floor((coords[2 * c]! - minX) / cellW));
  const cellY = (c: number) => Math.min(gy - 1, Math.floor((coords[2 * c + 1]! - minY) / cellH));
  // Compressed buckets: the customers of cell (x, y) are items[start[y * gx + x] .. start[.. + 1]).
  const start = new Int32Array(gx * gy + 1);
  for (const c of customers) start[cellY(c) * gx + cellX(c) + 1]! += 1;
  for (let i = 0; i < gx * gy; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, gx * gy);
  const items = new Int32Array(customers.length);
  for (const c of customers) {
    const cellIndex = cellY(c) * gx + cellX(c);
    items[fill[cellIndex]!] = c;
    fill[cellIndex]! += 1;
  }

  const keys = new Float64Array(count + 1);
  const ids = new Int32Array(count + 1);
  const ringStep = Math.min(cellW, cellH);
  for (const c of customers) {
    let size = 0;
    const x0 = cellX(c);
    const y0 = cellY(c);
    const consider = (o: number) => {
      if (o === c) return;
      const key = euclidean(coords, c, o);
      if (size === count && !(key < keys[size - 1]! || (key === keys[size - 1]! && o < ids[size - 1]!))) return;
      let at = size < count ? size : size - 1;
      while (at > 0 && (keys[at - 1]! > key || (keys[at - 1]! === key && ids[at - 1]! > o))) {
        keys[at] = keys[at - 1]!;
        ids[at] = ids[at - 1]!;
        at--;
      }
      keys[at] = key;
      ids[at] = o;
      if (size < count) size++;
    };
    const scanCell = (x: number, y: number) => {
      if (x < 0 || y < 0 || x >= gx || y >= gy) return;
      const cellIndex = y * gx + x;
      for (let t = start[cellIndex]!; t < start[cellIndex + 1]!; t++) consider(items[t]!);
    };
    for (let r = 0; ; r++) {
      if (r === 0) scanCell(x0, y0);
      for (let d = -r; d <= r && r > 0; d++) {
        scanCell(x0 + d, y0 - r);
        scanCell(x0 + d, y0 + r);
        if (d !== -r && d !== r) {
          scanCell(x0 - r, y0 + d);
          scanCell(x0 + r, y0 + d);
        }
      }
      // Anything outside rings 0..r lies at least r cell sides away.
      if (size === count && keys[count - 1]! < r * ringStep) break;
      if (r > gx && r > gy) break;
    }
    lists[c] = ids.slice(0, size);
  }
  return lists;
}
