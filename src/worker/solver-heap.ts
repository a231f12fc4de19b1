/**
 * The solver thread's V8 heap limit for one job, scaled to the job's size.
 *
 * Why not one generous limit for every job: V8 grows its old generation lazily, to a multiple of
 * the live data while the program allocates fast. The decomposition of a 30,000-customer problem
 * keeps well under 300 MB live, yet under a generous limit its process's RSS grew to about twice
 * what a limit near its live data gives, for the same solution quality (BENCHMARKS.md, XXL):
 * close to its limit V8 collects more often instead of growing. So each job gets a limit that
 * covers what its size can need, with room to spare, and no more:
 *
 * - a base for the strategies' working data on any problem (populations, neighbour lists,
 *   sub-problems with their dense matrices);
 * - per node, for per-node structures (nearest-neighbour lists, positions, routes, savings lists);
 * - per byte of request, for parsing it: the JSON text itself, then the parsed arrays (a
 *   distance matrix of doubles takes about as many bytes as its text), then its compiled copy.
 *
 * The limit is rounded up to a multiple of BUCKET_MB, so jobs of similar size share a thread and
 * the thread is restarted only when a job needs another bucket; it never exceeds the operator's
 * SOLVER_MAX_HEAP_MB. A job that still runs out of memory under a scaled limit is run again under
 * that maximum (solver-thread-runner.ts), so a scaled limit can cost time, never a solution.
 */
export const BASE_MB = 128;
export const PER_NODE_KB = 4;
export const PER_REQUEST_BYTE = 4;
export const BUCKET_MB = 64;

export interface JobSize {
  nodes: number;
  requestBytes: number;
}

export function solverHeapLimitMb(size: JobSize, maxMb: number): number {
  const mb = BASE_MB + (size.nodes * PER_NODE_KB) / 1024 + (size.requestBytes * PER_REQUEST_BYTE) / (1024 * 1024);
  const bucketed = Math.ceil(mb / BUCKET_MB) * BUCKET_MB;
  return Math.min(maxMb, bucketed);
}
