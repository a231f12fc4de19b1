import type { Routes } from "../routes.js";

/** The customer lists SWAP* (swap-star.ts) works on: which customers it may move, and a route rewritten by its move. */

/**
 * Writes into `out` the positions of route r's customers SWAP* (swap-star.ts) may move to route
 * `other`; returns their count. All of them, or with `nearOnly` (long routes under binding
 * windows: ProblemData.nearSwapStar) only those with a granular neighbour in `other`: a customer
 * none of whose nearest (by distance and windows) is there has no cheap place there, and on long
 * routes the pairs of all customers made SWAP* a large share of the search's time for moves the
 * exact time price nearly always refused.
 */
export function swapStarCandidates(rs: Routes, r: number, other: number, nearOnly: boolean, out: Int32Array): number {
  const seq = rs.seq[r]!;
  const len = rs.length[r]!;
  let count = 0;
  if (!nearOnly) {
    for (let k = 1; k <= len; k++) out[count++] = k;
    return count;
  }
  const routeOf = rs.routeOf;
  for (let k = 1; k <= len; k++) {
    const list = rs.m.neighbours[seq[k]!]!;
    for (let t = 0; t < list.length; t++) {
      if (routeOf[list[t]!] === other) {
        out[count++] = k;
        break;
      }
    }
  }
  return count;
}

/**
 * Route r rewritten into `out` without its customer at position `remove` (-1: none) and with
 * `insert` after position `after` (0: first; -1: in the removed customer's place; -2: none);
 * returns the count.
 */
export function rewrite(rs: Routes, r: number, remove: number, insert: number, after: number, out: Int32Array): number {
  const seq = rs.seq[r]!;
  const len = rs.length[r]!;
  let count = 0;
  if (after === 0) out[count++] = insert;
  for (let t = 1; t <= len; t++) {
    if (t === remove) {
      if (after === -1) out[count++] = insert;
      continue;
    }
    out[count++] = seq[t]!;
    if (t === after) out[count++] = insert;
  }
  return count;
}
