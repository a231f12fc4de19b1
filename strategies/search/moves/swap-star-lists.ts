import type { Routes } from "../routes.js";

/**
 * Route r rewritten by a SWAP* move (swap-star.ts) into `out` without its customer at position `remove` (-1: none) and with
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
