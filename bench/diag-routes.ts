/**
 * Diagnostic: how much a solution's routes still gain from exhaustive (not granular) moves with
 * exact feasibility: within each route, Or-opt of 1-3 customers (also reversed) to any place and
 * 2-opt of any segment; between routes, any customer to any place of any other route.
 * `node --import tsx bench/diag-routes.ts REQUEST.json ROUTES.json`
 */
import { readFileSync } from "node:fs";
import { evaluateRoute, evaluateSolution } from "../strategies/core/evaluator.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";

const [file, routesFile] = process.argv.slice(2);
const { problem: p } = compileRequest(JSON.parse(readFileSync(file!, "utf8")) as SolveRequestInput);
const routes = JSON.parse(readFileSync(routesFile!, "utf8")) as number[][];
const start = evaluateSolution(p, { routes }).cost;
const price = (v: number, r: number[]): number => {
  const s = evaluateRoute(p, v, r);
  return s.feasible ? s.distance : Number.POSITIVE_INFINITY;
};
let intra = 0;
for (let v = 0; v < routes.length; v++) {
  let r = routes[v]!;
  if (r.length < 3) continue;
  let cur = price(v, r);
  let improved = true;
  while (improved) {
    improved = false;
    const n = r.length;
    outer: for (let len = 1; len <= 3; len++) {
      for (let i = 0; i + len <= n; i++) {
        const seg = r.slice(i, i + len);
        const rest = [...r.slice(0, i), ...r.slice(i + len)];
        for (const s of len > 1 ? [seg, [...seg].reverse()] : [seg]) {
          for (let j = 0; j <= rest.length; j++) {
            if (j === i && s === seg) continue;
            const cand = [...rest.slice(0, j), ...s, ...rest.slice(j)];
            const c = price(v, cand);
            if (c < cur - 1e-6) {
              intra += cur - c;
              cur = c;
              r = cand;
              improved = true;
              break outer;
            }
          }
        }
      }
    }
    if (improved) continue;
    two: for (let i = 0; i < r.length; i++) {
      for (let j = i + 1; j < r.length; j++) {
        const cand = [...r.slice(0, i), ...r.slice(i, j + 1).reverse(), ...r.slice(j + 1)];
        const c = price(v, cand);
        if (c < cur - 1e-6) {
          intra += cur - c;
          cur = c;
          r = cand;
          improved = true;
          break two;
        }
      }
    }
  }
  routes[v] = r;
}
const afterIntra = evaluateSolution(p, { routes }).cost;
// Between routes: any customer to any place of another route (first improvement, repeated).
let inter = 0;
let improved = true;
while (improved) {
  improved = false;
  for (let a = 0; a < routes.length && !improved; a++) {
    for (let i = 0; i < routes[a]!.length && !improved; i++) {
      const ra = routes[a]!;
      const u = ra[i]!;
      const restA = [...ra.slice(0, i), ...ra.slice(i + 1)];
      const gainA = price(a, ra) - price(a, restA);
      if (!Number.isFinite(gainA)) continue;
      for (let b = 0; b < routes.length && !improved; b++) {
        if (b === a || routes[b]!.length === 0) continue;
        const rb = routes[b]!;
        const before = price(b, rb);
        for (let j = 0; j <= rb.length; j++) {
          const cand = [...rb.slice(0, j), u, ...rb.slice(j)];
          const rise = price(b, cand) - before;
          if (rise < gainA - 1e-6) {
            inter += gainA - rise;
            routes[a] = restA;
            routes[b] = cand;
            improved = true;
            break;
          }
        }
      }
    }
  }
}
const end = evaluateSolution(p, { routes });
console.log(
  JSON.stringify({
    start,
    afterIntra,
    intraGainPct: ((start - afterIntra) / start) * 100,
    afterInter: end.cost,
    interGainPct: ((afterIntra - end.cost) / start) * 100,
    feasible: end.feasible,
  }),
);
