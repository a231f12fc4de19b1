import type { CompiledProblem, LockedStops, Solution } from "../core/problem.js";

/**
 * The given plan's rules on the problem with reload copies (trip-copies.ts): the locked heads,
 * whose reload stops become the copies the plan was mapped to (`start`, from copiesOf), and the
 * reassignment cost's home vehicles, none for a copy (a reload stop is not a stop a driver keeps).
 * `q` is returned as it is when it has no copies (release times alone): p's own rules then hold.
 */
export function withPlanRules(p: CompiledProblem, q: CompiledProblem, start: Solution): CompiledProblem {
  if (q === p) return q;
  const nq = q.nodeCount;
  const n = p.nodeCount;
  let locks: LockedStops | null = null;
  if (p.locks) {
    const vehicle = new Int32Array(nq).fill(-1);
    const position = new Int32Array(nq);
    const stops = p.locks.stops.map((head, v) => {
      const mapped = (start.routes[v] ?? []).slice(0, head.length);
      mapped.forEach((c, k) => {
        vehicle[c] = v;
        position[c] = k + 1;
      });
      return Int32Array.from(mapped);
    });
    locks = { stops, vehicle, position };
  }
  const home = p.reassignment ? Int32Array.from({ length: nq }, (_, i) => (i < n ? p.reassignment!.home[i]! : -1)) : null;
  return { ...q, locks, reassignment: home ? { ...p.reassignment!, home } : null };
}
