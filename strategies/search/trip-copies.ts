import { distanceBetween, type CompiledProblem, type ServiceRules, type Solution, type TimeBlock } from "../core/problem.js";

/**
 * Reload stops in the one search: each vehicle that may reload gets copies of its reload nodes as
 * extra optional nodes of the problem (skip price 0, no demand, no service, the depot's distances
 * and window), allowed only on that vehicle. The search's insert and remove moves then add and
 * drop reload visits like optional customers, and the route model resets a trip's load at each
 * copy (route-trips.ts). Answers map every copy back to its reload node's index.
 */

/**
 * Reload copies per vehicle beyond the trips the whole fleet needs for its demand at least. One
 * came out ahead of three on MTVRPTWR at equal iterations (two seeds): spare copies are more
 * places for the ruin and the moves to waste their work.
 */
const SPARE_RELOADS = 1;
/**
 * Of a customer's granular neighbours, at most this many are reload copies (all at the same few
 * depots). None came out ahead of two: copies reach routes by their own moves (moves/reload-insert.ts).
 */
const COPY_NEIGHBOURS = 0;

/**
 * The problem with reload copies (p itself when no vehicle reloads: release times alone). With a
 * given plan (`initial`), each vehicle's first copies are its plan's reload stops, in order, so
 * that copiesOf maps every one of them (a locked head keeps its reload stops).
 */
export function expandTrips(p: CompiledProblem, initial?: Solution): CompiledProblem {
  const trips = p.trips!;
  if (!trips.reloadNodes.some((nodes) => nodes.length > 0)) return p;
  const n = p.nodeCount;
  const m = p.vehicleCount;
  let demand = 0;
  let capacity = 0;
  for (const c of p.customers) demand += p.demand[c]!;
  for (let v = 0; v < m; v++) capacity += p.capacity[v]!;
  const bound = Math.ceil(demand / Math.max(1e-9, capacity)) + SPARE_RELOADS;
  const origin: number[] = [];
  const owner: number[] = [];
  const copies: number[][] = [];
  for (let v = 0; v < m; v++) {
    const nodes = trips.reloadNodes[v]!;
    const planned = (initial?.routes[v] ?? []).filter((c) => c < n && p.isDepot[c] && nodes.includes(c));
    // Several reload nodes under a limit share it (round robin), so the copies never exceed it.
    const total = nodes.length === 0 ? 0 : Math.min(trips.maxReloads[v]!, Math.max(bound * nodes.length, planned.length));
    const own: number[] = [];
    for (let k = 0; k < total; k++) {
      own.push(n + origin.length);
      origin.push(k < planned.length ? planned[k]! : nodes[k % nodes.length]!);
      owner.push(v);
    }
    copies.push(own);
  }
  const nq = n + origin.length;
  const orig = (i: number) => (i < n ? i : origin[i - n]!);
  const dist = new Float64Array(nq * nq);
  for (let i = 0; i < nq; i++) for (let j = 0; j < nq; j++) dist[i * nq + j] = distanceBetween(p, orig(i), orig(j));
  const extend = (a: Float64Array, copy: (o: number) => number) =>
    Float64Array.from({ length: nq }, (_, i) => (i < n ? a[i]! : copy(orig(i))));
  const copyOf = Int32Array.from({ length: nq }, (_, i) => (i < n ? -1 : orig(i)));
  let coords: Float64Array | null = null;
  if (p.coords) coords = Float64Array.from({ length: 2 * nq }, (_, k) => p.coords![2 * orig(k >> 1) + (k & 1)]!);
  const t = p.time;
  const time: TimeBlock | null = t
    ? {
        ...t,
        twStartMin: extend(t.twStartMin, (o) => t.twStartMin[o]!),
        twEndMin: extend(t.twEndMin, (o) => t.twEndMin[o]!),
        serviceMin: extend(t.serviceMin, () => 0),
      }
    : null;
  return {
    ...p,
    nodeCount: nq,
    customers: Int32Array.from([...p.customers, ...origin.map((_, k) => n + k)]),
    isDepot: Uint8Array.from({ length: nq }, (_, i) => (i < n ? p.isDepot[i]! : 0)),
    dist,
    demand: extend(p.demand, () => 0),
    coords,
    time,
    rules: copyRules(p, nq, owner, copies),
    trips: {
      reloadNodes: copies.map((own) => Int32Array.from(own)),
      maxReloads: trips.maxReloads,
      release: trips.release ? extend(trips.release, () => 0) : null,
      copyOf,
    },
  };
}

/** The problem's rules (or none) widened to the copies: optional at price 0, on their own vehicle only. */
function copyRules(p: CompiledProblem, nq: number, owner: number[], copies: number[][]): ServiceRules {
  const n = p.nodeCount;
  const m = p.vehicleCount;
  const r = p.rules;
  const skipPenalty = new Float64Array(nq).fill(Number.POSITIVE_INFINITY);
  if (r) skipPenalty.set(r.skipPenalty);
  for (let i = n; i < nq; i++) skipPenalty[i] = 0;
  const allowed = new Uint8Array(m * nq);
  for (let v = 0; v < m; v++) for (let i = 0; i < n; i++) allowed[v * nq + i] = r?.allowed ? r.allowed[v * n + i]! : 1;
  owner.forEach((v, k) => (allowed[v * nq + n + k] = 1));
  // A stop cap counts customers: the copies on a route are added to it (the evaluator counts customers only).
  const maxStops = Int32Array.from({ length: m }, (_, v) => {
    const cap = r ? r.maxStops[v]! : 0x7fffffff;
    return cap === 0x7fffffff ? cap : cap + copies[v]!.length;
  });
  const none = (x: number) => new Float64Array(m).fill(x);
  return {
    skipPenalty,
    allowUnassigned: r?.allowUnassigned ?? false,
    allowed,
    shiftStartMin: r ? r.shiftStartMin : none(Number.NEGATIVE_INFINITY),
    shiftEndMin: r ? r.shiftEndMin : none(Number.POSITIVE_INFINITY),
    maxDistance: r ? r.maxDistance : none(Number.POSITIVE_INFINITY),
    maxDurationMin: r ? r.maxDurationMin : none(p.time ? p.time.maxRouteMin : Number.POSITIVE_INFINITY),
    maxStops,
  };
}

/**
 * A solution of the expanded problem `q` in p's nodes: copies become their reload node, and
 * reload stops that change nothing go: one at the start node before any customer, one at the end
 * node after the last, one right after a stop at the same node, and those of a route that serves
 * nobody (the route goes).
 */
export function copiesBack(p: CompiledProblem, q: CompiledProblem, s: Solution): Solution {
  if (q === p) return s;
  const copyOf = q.trips!.copyOf!;
  return {
    routes: s.routes.map((route, v) => {
      if (!route.some((c) => copyOf[c]! < 0)) return [];
      const out: number[] = [];
      let stop = p.startNode[v]!;
      for (const c of route) {
        if (copyOf[c]! < 0) {
          out.push(c);
          stop = -1;
        } else if (copyOf[c] !== stop) {
          stop = copyOf[c]!;
          out.push(stop);
        }
      }
      if (stop === p.endNode[v]) out.pop();
      return out;
    }),
  };
}

/** A solution in p's nodes (reload stops as their node) in q's: each reload stop takes an unused copy of its vehicle, or is dropped. */
export function copiesOf(p: CompiledProblem, q: CompiledProblem, s: Solution): Solution {
  if (q === p) return s;
  const copyOf = q.trips!.copyOf!;
  return {
    routes: s.routes.map((route, v) => {
      const free = Array.from(q.trips!.reloadNodes[v] ?? []);
      const out: number[] = [];
      for (const c of route) {
        if (c >= p.nodeCount || !p.isDepot[c]) out.push(c);
        else {
          const k = free.findIndex((x) => copyOf[x] === c);
          if (k >= 0) out.push(free.splice(k, 1)[0]!);
        }
      }
      return out;
    }),
  };
}

/** Per vehicle the capacity that bounds its whole route: none (Infinity) for a vehicle that reloads. */
export function routeCapacityBound(p: CompiledProblem): Float64Array {
  return Float64Array.from(p.capacity, (c, v) => (p.trips!.reloadNodes[v]!.length > 0 ? Number.POSITIVE_INFINITY : c));
}

/** Granular neighbours with at most COPY_NEIGHBOURS copies per customer, and none for a copy. */
export function fewerCopyNeighbours(copyOf: Int32Array, lists: Int32Array[]): Int32Array[] {
  return lists.map((list, u) => {
    if (!list) return list;
    let kept = copyOf[u]! >= 0 ? COPY_NEIGHBOURS : 0;
    return list.filter((w) => copyOf[w]! < 0 || kept++ < COPY_NEIGHBOURS);
  });
}
