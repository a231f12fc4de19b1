import { euclidean, hasDenseMatrix, windowsBindAgainst, type CompiledProblem } from "../core/problem.js";
import { identicalVehiclesMismatch } from "../search/identical-vehicles-model.js";

/**
 * Most nodes for which hgs builds the full distance matrix itself when the request gave only
 * coordinates (compile-request.ts builds it up to DENSE_MATRIX_MAX_NODES, 3,000): 5,001 nodes
 * are 200 MB as Float64. Only for identical-vehicles problems with binding windows (the identical-vehicles iterated
 * local search on the whole problem beats the alternatives there, BENCHMARKS.md); above
 * this size, and for every other problem without the matrix, the decomposition (strategies/large)
 * keeps memory bounded.
 */
export const WINDOWS_WHOLE_MAX_NODES = 5001;

/** Whether hgs takes this matrix-less problem by building the matrix from coordinates (see above). */
export function buildsOwnMatrix(p: CompiledProblem): boolean {
  if (hasDenseMatrix(p) || !p.coords || p.nodeCount > WINDOWS_WHOLE_MAX_NODES) return false;
  if (identicalVehiclesMismatch(p) !== null || p.loads) return false;
  return p.time !== null && p.vehicleCount > 0 && windowsBindAgainst(p, p.startNode[0]!);
}

/** The problem with its full matrix, computed from coordinates with the evaluator's own formula (core/problem.ts). */
export function withDenseMatrix(p: CompiledProblem): CompiledProblem {
  if (hasDenseMatrix(p) || !p.coords) return p;
  const n = p.nodeCount;
  const coords = p.coords;
  const dist = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) dist[i * n + j] = i === j ? 0 : euclidean(coords, i, j);
  return { ...p, dist };
}
