import type { CompiledProblem } from "../../strategies/core/problem.js";
import { legMinutesWith } from "../../strategies/core/travel.js";

/** The request's distance from i to j (the pre-check may run without a matrix). */
type Distance = (i: number, j: number) => number;

/** Matrix entries all shortest-path searches of one pre-check may read (about 0.1 s). */
const WORK_LIMIT = 5e7;

/**
 * Least travel minutes for the pre-check's proofs. A partner's duration matrix need not obey the
 * triangle inequality (a motorway detour beats the straight road), so "straight from the start
 * node" is no lower bound there: a route may reach a customer sooner through other stops. On a
 * vehicle driving a duration matrix the bound is the shortest path (Dijkstra on the dense matrix,
 * each stop passed through costing its service time too); distances over speeds keep the straight
 * leg, as the pre-check has always assumed of them.
 */
export class TravelBounds {
  /** Matrix entries the searches have read: past WORK_LIMIT a bound is 0 (still a bound; the pre-check stays O(n^2)-ish). */
  private work = 0;
  private readonly cache = new Map<Float64Array, Map<string, Float64Array>>();

  constructor(
    private readonly p: CompiledProblem,
    private readonly dist: Distance,
  ) {}

  /** At least the minutes vehicle v needs from node i to node j. */
  from(v: number, i: number, j: number): number {
    const matrix = this.p.travel?.duration[v] ?? null;
    if (!matrix) return this.inTraffic(legMinutesWith(this.p, v, i, j, this.dist));
    return this.inTraffic(this.paths(matrix, i, true)[j]!);
  }

  /** At least the minutes vehicle v needs from node i to node j, computed towards j (one search per end node). */
  to(v: number, i: number, j: number): number {
    const matrix = this.p.travel?.duration[v] ?? null;
    if (!matrix) return this.inTraffic(legMinutesWith(this.p, v, i, j, this.dist));
    return this.inTraffic(this.paths(matrix, j, false)[i]!);
  }

  /** Under traffic (time_dependent_durations) base minutes take at least their time at the fastest slot's pace. */
  private inTraffic(minutes: number): number {
    const traffic = this.p.travel?.traffic;
    return traffic ? minutes * Math.min(...traffic.factor) : minutes;
  }

  /** Shortest paths from `node` (forward) or to it (backward) on `matrix`, services of the stops passed through included. */
  private paths(matrix: Float64Array, node: number, forward: boolean): Float64Array {
    let byNode = this.cache.get(matrix);
    if (!byNode) this.cache.set(matrix, (byNode = new Map()));
    const key = `${forward ? ">" : "<"}${node}`;
    const found = byNode.get(key);
    if (found) return found;
    const n = this.p.nodeCount;
    this.work += n * n;
    if (this.work > WORK_LIMIT) return new Float64Array(n);
    const service = this.p.time!.serviceMin;
    const best = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
    const done = new Uint8Array(n);
    best[node] = 0;
    for (let round = 0; round < n; round++) {
      let u = -1;
      for (let i = 0; i < n; i++) if (!done[i] && (u < 0 || best[i]! < best[u]!)) u = i;
      if (u < 0 || best[u] === Number.POSITIVE_INFINITY) break;
      done[u] = 1;
      // Passing through u (not the search's own node) costs its service time.
      const through = u === node ? 0 : service[u]!;
      for (let w = 0; w < n; w++) {
        if (done[w]) continue;
        const leg = forward ? matrix[u * n + w]! : matrix[w * n + u]!;
        const t = best[u]! + through + leg;
        if (t < best[w]!) best[w] = t;
      }
    }
    byNode.set(key, best);
    return best;
  }
}
