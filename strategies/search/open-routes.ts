import { distanceBetween, type CompiledProblem } from "../core/problem.js";

/**
 * Open routes (vehicle_return_to_end false) for the search, as PyVRP models them: each open
 * vehicle ends at one extra depot node whose arcs in cost nothing (no distance, no minutes, no
 * window), so that the route model prices "no last leg" with the arithmetic it has, and every move
 * stays exact. Solutions list customers only, so a solution of this problem is one of `p`, which
 * the trusted evaluator then scores on the real, open routes. `p` itself when no route is open.
 */
export function withOpenEnd(p: CompiledProblem): CompiledProblem {
  const tr = p.travel;
  if (!tr || tr.returnToEnd.every((back) => back === 1)) return p;
  const n = p.nodeCount;
  const n1 = n + 1;
  const end = n;
  const grow = (a: Float64Array, value: number) => {
    const out = new Float64Array(n1);
    out.set(a);
    out[end] = value;
    return out;
  };
  // n x n -> (n + 1) x (n + 1), the new node's row and column 0; one copy per shared matrix.
  const expanded = new Map<Float64Array, Float64Array>();
  const square = (a: Float64Array | null) => {
    if (a === null) return null;
    let out = expanded.get(a);
    if (!out) {
      out = new Float64Array(n1 * n1);
      for (let i = 0; i < n; i++) out.set(a.subarray(i * n, (i + 1) * n), i * n1);
      expanded.set(a, out);
    }
    return out;
  };
  const dist = new Float64Array(n1 * n1);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) dist[i * n1 + j] = distanceBetween(p, i, j);
  const endNode = Int32Array.from(p.endNode, (e, v) => (tr.returnToEnd[v] === 0 ? end : e));
  const isDepot = new Uint8Array(n1);
  isDepot.set(p.isDepot);
  isDepot[end] = 1;
  let coords: Float64Array | null = null;
  if (p.coords) {
    coords = new Float64Array(2 * n1);
    coords.set(p.coords);
  }
  const t = p.time;
  const rules = p.rules;
  const loads = p.loads;
  const locks = p.locks;
  return {
    ...p,
    nodeCount: n1,
    isDepot,
    dist,
    coords,
    demand: grow(p.demand, 0),
    endNode,
    time: t && {
      ...t,
      twStartMin: grow(t.twStartMin, 0),
      twEndMin: grow(t.twEndMin, Number.POSITIVE_INFINITY),
      serviceMin: grow(t.serviceMin, 0),
    },
    ...(rules
      ? {
          rules: {
            ...rules,
            skipPenalty: grow(rules.skipPenalty, Number.POSITIVE_INFINITY),
            allowed: rules.allowed && widenAllowed(rules.allowed, n, p.vehicleCount),
            // An open route has no arrival at an end node to hold to the shift's end.
            shiftEndMin: Float64Array.from(rules.shiftEndMin, (x, v) => (tr.returnToEnd[v] === 0 ? Number.POSITIVE_INFINITY : x)),
          },
        }
      : {}),
    ...(loads
      ? {
          loads: {
            ...loads,
            pickup: grow(loads.pickup, 0),
            partner: Int32Array.from({ length: n1 }, (_, i) => (i < n ? loads.partner[i]! : -1)),
            shipmentLoad: grow(loads.shipmentLoad, 0),
            extraDemand: Float64Array.from({ length: n1 * loads.extraDims }, (_, k) => loads.extraDemand[k] ?? 0),
          },
        }
      : {}),
    ...(locks
      ? {
          locks: {
            ...locks,
            vehicle: Int32Array.from({ length: n1 }, (_, i) => (i < n ? locks.vehicle[i]! : -1)),
            position: Int32Array.from({ length: n1 }, (_, i) => (i < n ? locks.position[i]! : 0)),
          },
        }
      : {}),
    travel: {
      ...tr,
      duration: tr.duration.map(square),
      distance: tr.distance.map(square),
      windowSets: [...tr.windowSets, null],
      returnToEnd: new Uint8Array(p.vehicleCount).fill(1),
    },
  };
}

/** allowed[v * n + i] re-laid for one more node (which every vehicle may visit: it is a depot). */
function widenAllowed(allowed: Uint8Array, n: number, m: number): Uint8Array {
  const out = new Uint8Array(m * (n + 1));
  for (let v = 0; v < m; v++) {
    out.set(allowed.subarray(v * n, (v + 1) * n), v * (n + 1));
    out[v * (n + 1) + n] = 1;
  }
  return out;
}
