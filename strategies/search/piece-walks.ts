import type { ProblemData } from "./problem-data.js";
import type { Pieces } from "./pieces.js";

/*
 * Walks over a candidate route given as pieces (pieces.ts) of the model's routes: its distance,
 * its delivered load, its service minutes and its customer list, each in O(pieces) from the
 * routes' prefix sums (O(customers) for the list).
 */

/** The parts of the route model (routes.ts) a walk over a candidate's pieces reads. */
export interface PieceSource {
  readonly m: ProblemData;
  readonly seq: Int32Array[];
  readonly fwd: Float64Array[];
  readonly bwd: Float64Array[];
  /** Prefix distances on every matrix of a fleet on several (routes.ts); null on one. */
  readonly fwdBy: Float64Array[][] | null;
  readonly bwdBy: Float64Array[][] | null;
  readonly serv: Float64Array[];
  readonly load: Float64Array[];
}

/** Distance of vehicle v driving `pieces` from its start to its end node. */
export function piecesDistance(rs: PieceSource, v: number, pieces: Pieces): number {
  const m = rs.m;
  const n = m.nodeCount;
  const k = m.distances.indexOf[v]!;
  const d = m.distances.matrices[k]!;
  // A piece keeps its prefix distances on v's matrix, whichever vehicle drives it now.
  const fwd = rs.fwdBy ? rs.fwdBy[k]! : rs.fwd;
  const bwd = rs.bwdBy ? rs.bwdBy[k]! : rs.bwd;
  let distance = 0;
  let prev = m.start[v]!;
  for (let k = 0; k < pieces.count; k++) {
    const r = pieces.route[k]!;
    const from = pieces.from[k]!;
    const to = pieces.to[k]!;
    if (r < 0) {
      distance += d[prev * n + from]!;
      prev = from;
    } else if (pieces.reversed[k]) {
      distance += d[prev * n + rs.seq[r]![to]!]! + bwd[r]![to]! - bwd[r]![from]!;
      prev = rs.seq[r]![from]!;
    } else {
      distance += d[prev * n + rs.seq[r]![from]!]! + fwd[r]![to]! - fwd[r]![from]!;
      prev = rs.seq[r]![to]!;
    }
  }
  return distance + d[prev * n + m.end[v]!]!;
}

/** Delivered load (dimension 0) of the customers in `pieces`. */
export function piecesLoad(rs: PieceSource, pieces: Pieces): number {
  return piecesSum(pieces, rs.load, rs.m.demand);
}

/** Service minutes of the customers in `pieces`. */
export function piecesService(rs: PieceSource, pieces: Pieces): number {
  return piecesSum(pieces, rs.serv, rs.m.service);
}

/** Sum of a per-customer quantity over `pieces`: `prefix[r][k]` sums it over route r's positions up to k, `perNode` is a single node's. */
function piecesSum(pieces: Pieces, prefix: Float64Array[], perNode: ArrayLike<number>): number {
  let sum = 0;
  for (let k = 0; k < pieces.count; k++) {
    const r = pieces.route[k]!;
    if (r < 0) sum += perNode[pieces.from[k]!]!;
    else sum += prefix[r]![pieces.to[k]!]! - prefix[r]![pieces.from[k]! - 1]!;
  }
  return sum;
}

/** Writes the customers of `pieces` in order into `out`; returns their count. */
export function writePieces(rs: PieceSource, pieces: Pieces, out: Int32Array): number {
  let count = 0;
  for (let k = 0; k < pieces.count; k++) {
    const r = pieces.route[k]!;
    if (r < 0) {
      out[count++] = pieces.from[k]!;
      continue;
    }
    const seq = rs.seq[r]!;
    if (pieces.reversed[k]) for (let t = pieces.to[k]!; t >= pieces.from[k]!; t--) out[count++] = seq[t]!;
    else for (let t = pieces.from[k]!; t <= pieces.to[k]!; t++) out[count++] = seq[t]!;
  }
  return count;
}
