/** Matrices already checked (a solve builds several route models on the same ones). */
const checked = new WeakMap<Float64Array, boolean>();

/**
 * Whether every n x n matrix reads the same both ways, bit for bit. Then a move evaluation may
 * read d(v, u) as d(u, v), from the row of the customer whose neighbours it walks, which stays in
 * the cache across that walk, instead of one scattered row per neighbour; the value, and so the
 * search, is the same.
 */
export function exactlySymmetric(matrices: readonly Float64Array[], n: number): boolean {
  for (const d of matrices) {
    let symmetric = checked.get(d);
    if (symmetric === undefined) {
      symmetric = true;
      for (let i = 0; i < n && symmetric; i++)
        for (let j = i + 1; j < n; j++)
          if (d[i * n + j] !== d[j * n + i]) {
            symmetric = false;
            break;
          }
      checked.set(d, symmetric);
    }
    if (!symmetric) return false;
  }
  return true;
}
