import type { Routes } from "../routes.js";

/**
 * Distance, load and service of the two routes a 2-opt* move (SwapTails) makes, in O(1) from the route
 * set's prefix sums, so that most candidates are rejected before any pieces are built. Route ru
 * keeps its vehicle (start and end node), and so does rv; the parts that move between them are
 * paths inside the current routes (forward: fwd differences; backward: bwd differences).
 * Results go to `out`: [distance A, load A, customers A, distance B, load B, customers B, service A, service B].
 */
export class TailPrices {
  readonly out = new Float64Array(8);

  constructor(private readonly rs: Routes) {}

  /** u (at position i of ru) continues with rv's tail after j; v's head (1..j) continues with ru's tail after i. */
  straight(ru: number, i: number, rv: number, j: number): Float64Array {
    const rs = this.rs;
    const m = rs.m;
    const n = m.nodeCount;
    // Each part on the distances of the vehicle that drives it now (one matrix unless profiles have their own).
    const dU = rs.slotMatrix[ru]!;
    const dV = rs.slotMatrix[rv]!;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const seqU = rs.seq[ru]!;
    const seqV = rs.seq[rv]!;
    const fwdU = rs.fwd[ru]!;
    const fwdV = rs.fwd[rv]!;
    const vOnU = rs.fwdBy ? rs.fwdOn(rv, ru) : fwdV;
    const uOnV = rs.fwdBy ? rs.fwdOn(ru, rv) : fwdU;
    const loadU = rs.load[ru]!;
    const loadV = rs.load[rv]!;
    const endU = m.end[ru]!;
    const endV = m.end[rv]!;
    const u = seqU[i]!;
    const out = this.out;
    // A: start of ru .. u, then v's tail j+1..lenV, then ru's end.
    let distA = fwdU[i]!;
    if (j < lenV) distA += dU[u * n + seqV[j + 1]!]! + vOnU[lenV]! - vOnU[j + 1]! + dU[seqV[lenV]! * n + endU]!;
    else distA += dU[u * n + endU]!;
    // B: start of rv .. v (or nothing), then u's tail i+1..lenU, then rv's end.
    let distB = j > 0 ? fwdV[j]! : 0;
    const last = j > 0 ? seqV[j]! : m.start[rv]!;
    if (i < lenU) distB += dV[last * n + seqU[i + 1]!]! + uOnV[lenU]! - uOnV[i + 1]! + dV[seqU[lenU]! * n + endV]!;
    else distB += dV[last * n + endV]!;
    out[0] = distA;
    out[1] = loadU[i]! + loadV[lenV]! - loadV[j]!;
    out[2] = i + lenV - j;
    out[3] = distB;
    out[4] = loadV[j]! + loadU[lenU]! - loadU[i]!;
    out[5] = j + lenU - i;
    const servU = rs.serv[ru]!;
    const servV = rs.serv[rv]!;
    out[6] = servU[i]! + servV[lenV]! - servV[j]!;
    out[7] = servV[j]! + servU[lenU]! - servU[i]!;
    return out;
  }

  /** u (at position i of ru) continues with v's head j..1 backwards; u's tail lenU..i+1 backwards precedes v's tail on rv. */
  reversed(ru: number, i: number, rv: number, j: number): Float64Array {
    const rs = this.rs;
    const m = rs.m;
    const n = m.nodeCount;
    const dU = rs.slotMatrix[ru]!;
    const dV = rs.slotMatrix[rv]!;
    const bwdVOnU = rs.bwdBy ? rs.bwdOn(rv, ru) : rs.bwd[rv]!;
    const bwdUOnV = rs.bwdBy ? rs.bwdOn(ru, rv) : rs.bwd[ru]!;
    const lenU = rs.length[ru]!;
    const lenV = rs.length[rv]!;
    const seqU = rs.seq[ru]!;
    const seqV = rs.seq[rv]!;
    const fwdU = rs.fwd[ru]!;
    const fwdV = rs.fwd[rv]!;
    const loadU = rs.load[ru]!;
    const loadV = rs.load[rv]!;
    const endU = m.end[ru]!;
    const endV = m.end[rv]!;
    const u = seqU[i]!;
    const out = this.out;
    // A: start of ru .. u, then v_j .. v_1 backwards, then ru's end.
    let distA = fwdU[i]!;
    if (j > 0) distA += dU[u * n + seqV[j]!]! + bwdVOnU[j]! - bwdVOnU[1]! + dU[seqV[1]! * n + endU]!;
    else distA += dU[u * n + endU]!;
    // B: rv's start, u's tail lenU .. i+1 backwards (or nothing), v's tail j+1 .. lenV, rv's end.
    let distB = 0;
    let last = m.start[rv]!;
    if (i < lenU) {
      distB += dV[last * n + seqU[lenU]!]! + bwdUOnV[lenU]! - bwdUOnV[i + 1]!;
      last = seqU[i + 1]!;
    }
    if (j < lenV) distB += dV[last * n + seqV[j + 1]!]! + fwdV[lenV]! - fwdV[j + 1]! + dV[seqV[lenV]! * n + endV]!;
    else distB += dV[last * n + endV]!;
    out[0] = distA;
    out[1] = loadU[i]! + loadV[j]!;
    out[2] = i + j;
    out[3] = distB;
    out[4] = loadU[lenU]! - loadU[i]! + loadV[lenV]! - loadV[j]!;
    out[5] = lenU - i + lenV - j;
    const servU = rs.serv[ru]!;
    const servV = rs.serv[rv]!;
    out[6] = servU[i]! + servV[j]!;
    out[7] = servU[lenU]! - servU[i]! + servV[lenV]! - servV[j]!;
    return out;
  }
}
