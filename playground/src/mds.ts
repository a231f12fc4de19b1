/**
 * Classical multidimensional scaling: 2-D positions whose Euclidean distances approximate a
 * distance matrix (symmetrised first, since matrices may be asymmetric). B = -1/2 J D^2 J, the
 * two leading eigenvectors by power iteration with deflation (O(n^2) per step, fine for 2,000
 * nodes where a full eigendecomposition would be O(n^3)). The layout is only approximate.
 */
export function classicalMds(matrix: number[][]): [number, number][] {
  const n = matrix.length;
  const b = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const d = ((matrix[i]?.[j] ?? 0) + (matrix[j]?.[i] ?? 0)) / 2;
      b[i * n + j] = d * d;
    }
  }
  // Double centring: subtract row and column means, add the grand mean, times -1/2.
  const rowMean = new Float64Array(n);
  let grand = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += b[i * n + j]!;
    rowMean[i] = s / n;
    grand += s;
  }
  grand /= n * n;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) b[i * n + j] = -0.5 * (b[i * n + j]! - rowMean[i]! - rowMean[j]! + grand);

  const axes: Float64Array[] = [];
  const values: number[] = [];
  for (let k = 0; k < 2; k++) {
    let v = new Float64Array(n).map((_, i) => Math.sin(i * 12.9898 + k * 78.233) + 0.5);
    let lambda = 0;
    for (let iter = 0; iter < 300; iter++) {
      const w = multiply(b, v, n);
      for (let a = 0; a < axes.length; a++) subtractProjection(w, axes[a]!, values[a]!, v);
      let squares = 0;
      for (let i = 0; i < n; i++) squares += w[i]! * w[i]!;
      const norm = Math.sqrt(squares) || 1;
      const next = w.map((x) => x / norm);
      const delta = next.reduce((s, x, i) => s + Math.abs(x - v[i]!), 0);
      v = next;
      lambda = norm;
      if (delta < 1e-9 * n) break;
    }
    axes.push(v);
    values.push(lambda);
  }
  const sx = Math.sqrt(Math.max(values[0]!, 0));
  const sy = Math.sqrt(Math.max(values[1]!, 0));
  return Array.from({ length: n }, (_, i) => [axes[0]![i]! * sx, axes[1]![i]! * sy]);
}

function multiply(m: Float64Array, v: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const row = i * n;
    for (let j = 0; j < n; j++) s += m[row + j]! * v[j]!;
    out[i] = s;
  }
  return out;
}

/** Deflation: remove the part of B v that the already found eigenpair explains. */
function subtractProjection(w: Float64Array, axis: Float64Array, value: number, v: Float64Array): void {
  let dot = 0;
  for (let i = 0; i < v.length; i++) dot += axis[i]! * v[i]!;
  for (let i = 0; i < w.length; i++) w[i] = w[i]! - value * dot * axis[i]!;
}
