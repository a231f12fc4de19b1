import type { Rng } from "../core/rng.js";

/**
 * Ordered crossover (OX) on giant tours: a random slice of the first parent is kept in place and
 * the remaining customers follow in the second parent's order, starting after the slice.
 */
export function orderedCrossover(first: Int32Array, second: Int32Array, rng: Rng, nodeCount: number): Int32Array {
  const size = first.length;
  const child = new Int32Array(size);
  if (size < 2) {
    child.set(first);
    return child;
  }
  const start = rng.int(size);
  let end = rng.int(size);
  while (end === start) end = rng.int(size);
  const taken = new Uint8Array(nodeCount);
  let k = start;
  while (k % size !== (end + 1) % size) {
    const at = k % size;
    child[at] = first[at]!;
    taken[first[at]!] = 1;
    k++;
  }
  let write = (end + 1) % size;
  for (let t = 1; t <= size; t++) {
    const c = second[(end + t) % size]!;
    if (taken[c]) continue;
    child[write] = c;
    write = (write + 1) % size;
  }
  return child;
}
