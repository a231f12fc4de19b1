import type { Rng } from "../core/rng.js";

/** Neighbour-list links per customer that count towards how close two routes are. */
const AFFINITY_LINKS = 8;
/**
 * Routes per group at least, whatever `target`: a group of one or two long routes (Leuven2 and
 * Flanders2 have about 90 and 115 customers per route) leaves its sub-search almost no moves
 * between routes.
 */
export const MIN_GROUP_ROUTES = 3;

/**
 * Picks a group of neighbouring routes to re-optimise together: route-based decomposition, which
 * Santini, Schneider, Vidal and Vigo (Decomposition strategies for vehicle routing heuristics,
 * INFORMS Journal on Computing 35(3), 2023) found superior to path-based decomposition inside HGS
 * and ALNS (their best variant clusters route barycentres; this one needs no coordinates):
 * from a seed route (`seed`, else a random one), repeatedly add the route that most of the group's customers have
 * among their nearest neighbours, until the group holds `target` customers and at least
 * MIN_GROUP_ROUTES routes (or until `enough` says so). It needs only the
 * granular neighbour lists, so it works with or without coordinates and a matrix.
 */
export function pickRouteGroup(
  routes: readonly number[][],
  routeOf: Int32Array,
  near: readonly Int32Array[],
  target: number,
  rng: Rng,
  seed = -1,
  enough: (group: readonly number[], size: number) => boolean = (group, size) => size >= target && group.length >= MIN_GROUP_ROUTES,
): number[] {
  const used: number[] = [];
  for (let v = 0; v < routes.length; v++) if (routes[v]!.length > 0) used.push(v);
  if (used.length === 0) return [];
  const group: number[] = [];
  const inGroup = new Set<number>();
  const affinity = new Map<number, number>();
  let size = 0;
  const add = (v: number) => {
    group.push(v);
    inGroup.add(v);
    affinity.delete(v);
    size += routes[v]!.length;
    for (const c of routes[v]!) {
      const list = near[c]!;
      for (let i = 0; i < Math.min(AFFINITY_LINKS, list.length); i++) {
        const r = routeOf[list[i]!]!;
        if (r >= 0 && !inGroup.has(r)) affinity.set(r, (affinity.get(r) ?? 0) + 1);
      }
    }
  };
  add(seed >= 0 && routes[seed]!.length > 0 ? seed : used[rng.int(used.length)]!);
  while (!enough(group, size) && group.length < used.length) {
    let best = -1;
    let bestScore = 0;
    for (const [r, score] of affinity) {
      if (score > bestScore || (score === bestScore && r < best)) {
        best = r;
        bestScore = score;
      }
    }
    if (best < 0) break;
    add(best);
  }
  return group;
}
