import type { CompiledProblem } from "../core/problem.js";

/**
 * The distance matrices a fleet drives on (profiles with their own distance_matrix): the route
 * model keeps each route's prefix distances on every one of them (routes.ts), so that a piece of
 * one vehicle's route moved to a vehicle of another network is priced in O(1) as well.
 */
export interface DistanceProfiles {
  /** The distinct matrices, the request's own first; [p.dist] alone when no vehicle has another. */
  matrices: Float64Array[];
  /** Per route slot the index of its matrix in `matrices`. */
  indexOf: Int32Array;
}

export function distanceProfiles(p: CompiledProblem, routes: number): DistanceProfiles {
  const matrices: Float64Array[] = [p.dist];
  const indexOf = new Int32Array(routes);
  const own = p.travel?.distance;
  if (own)
    for (let v = 0; v < routes; v++) {
      const matrix = own[v] ?? null;
      if (matrix === null) continue;
      let k = matrices.indexOf(matrix);
      if (k < 0) k = matrices.push(matrix) - 1;
      indexOf[v] = k;
    }
  return { matrices, indexOf };
}

/**
 * Per route slot its travel minutes when they are not the request's distance / speed: its
 * duration matrix, or its own distances over its speed (made once per matrix and speed); null
 * for the request's distances over speed, and null as a whole when every slot is that.
 */
export function slotMinutes(p: CompiledProblem, routes: number): (Float64Array | null)[] | null {
  const tr = p.travel;
  if (!tr || !p.time || routes === 0) return null;
  const made = new Map<Float64Array, Map<number, Float64Array>>();
  const minutes = Array.from({ length: routes }, (_, v) => {
    const duration = tr.duration[v] ?? null;
    const distance = tr.distance[v] ?? null;
    if (duration || !distance) return duration;
    const speed = p.time!.speed[v]!;
    const bySpeed = made.get(distance) ?? new Map<number, Float64Array>();
    made.set(distance, bySpeed);
    let matrix = bySpeed.get(speed);
    if (!matrix) bySpeed.set(speed, (matrix = Float64Array.from(distance, (d) => d / speed)));
    return matrix;
  });
  return minutes.some((d) => d !== null) ? minutes : null;
}

/**
 * The route model's prefix distances of every route on the fleet's other matrices (routes.ts keeps
 * each route's own): fwdBy[k][r] and bwdBy[k][r], the route's own arrays where k is its matrix.
 */
export class OtherMatrixPrefixes {
  readonly fwdBy: Float64Array[][];
  readonly bwdBy: Float64Array[][];

  constructor(
    private readonly distances: DistanceProfiles,
    private readonly nodeCount: number,
    fwd: Float64Array[],
    bwd: Float64Array[],
    slots: number,
  ) {
    const { matrices, indexOf } = distances;
    const on = (k: number, own: Float64Array[]) => own.map((prefix, r) => (indexOf[r] === k ? prefix : new Float64Array(slots)));
    this.fwdBy = matrices.map((_, k) => on(k, fwd));
    this.bwdBy = matrices.map((_, k) => on(k, bwd));
  }

  /** Route r now serves seq[1..count] (its start and end nodes at 0 and count + 1). */
  set(r: number, seq: Int32Array, count: number): void {
    const { matrices, indexOf } = this.distances;
    const n = this.nodeCount;
    for (let k = 0; k < matrices.length; k++) {
      if (k === indexOf[r]) continue;
      const d = matrices[k]!;
      const fwd = this.fwdBy[k]![r]!;
      const bwd = this.bwdBy[k]![r]!;
      for (let t = 1; t <= count + 1; t++) {
        const a = seq[t - 1]!;
        const b = seq[t]!;
        fwd[t] = fwd[t - 1]! + d[a * n + b]!;
        bwd[t] = bwd[t - 1]! + d[b * n + a]!;
      }
    }
  }
}
