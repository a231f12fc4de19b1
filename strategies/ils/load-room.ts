import type { LocalSearch } from "../search/local-search.js";
import type { ProblemData } from "../search/problem-data.js";

/**
 * Whether load is the only rule a plan can break: no windows, no duration cap, no order or
 * optional customers or fleet rules, one load dimension delivered from the start. There a move of
 * a customer between any two routes keeps every other rule.
 */
export function onlyLoadBinds(m: ProblemData): boolean {
  return (
    m.windows === null &&
    m.twStart === null &&
    m.durationLimit === Number.POSITIVE_INFINITY &&
    m.order === null &&
    !m.richLoads &&
    m.skipPrice === null &&
    m.rules === null
  );
}

interface RoomMove {
  /** How much of the overloaded route's excess the move takes off. */
  relief: number;
  /** The distance it adds. */
  detour: number;
  /** The customer leaving the overloaded route, at its position there. */
  position: number;
  /** The route with room, and the position its customer leaves (a swap) or the new customer enters (a relocation). */
  other: number;
  otherPosition: number;
  swap: boolean;
}

/**
 * Takes excess load off each overloaded route into routes with room anywhere in the fleet: a
 * relocation of one of its customers into a route with room for it, or an exchange with a smaller
 * customer of a route with room for the difference, the largest relief first, then the least
 * distance added. A granular search moves customers only among near routes; on a tight fleet
 * (little room per route) the room a customer needs is often only on distant ones, and a repair at
 * raised prices then ends a unit or two over. Returns whether it moved anything (only for
 * problems where `onlyLoadBinds`).
 */
export function moveLoadToRoom(ls: LocalSearch): boolean {
  const m = ls.m;
  const routes = ls.routes();
  const loads = routes.map((route) => route.reduce((sum, c) => sum + m.demand[c]!, 0));
  let moved = false;
  // Again while a pass moved anything: relief may leave room on a route passed over before.
  for (let pass = true; pass;) {
    pass = false;
    for (let r = 0; r < routes.length; r++) {
      while (loads[r]! > m.capacity[r]! + 1e-9) {
        const move = bestRoomMove(m, routes, loads, r);
        if (move === null) break;
        apply(m, routes, loads, r, move);
        for (const changed of [r, move.other]) ls.setRoute(changed, Int32Array.from(routes[changed]!), routes[changed]!.length);
        moved = pass = true;
      }
    }
  }
  return moved;
}

function bestRoomMove(m: ProblemData, routes: number[][], loads: number[], r: number): RoomMove | null {
  const n = m.nodeCount;
  const d = m.dist;
  const route = routes[r]!;
  const excess = loads[r]! - m.capacity[r]!;
  let best: RoomMove | null = null;
  const better = (relief: number, detour: number) =>
    best === null || relief > best.relief + 1e-9 || (relief > best.relief - 1e-9 && detour < best.detour);
  for (let i = 0; i < route.length; i++) {
    const u = route[i]!;
    const a = i === 0 ? m.start[r]! : route[i - 1]!;
    const b = i === route.length - 1 ? m.end[r]! : route[i + 1]!;
    const removal = d[a * n + b]! - d[a * n + u]! - d[u * n + b]!;
    for (let q = 0; q < routes.length; q++) {
      if (q === r) continue;
      const room = m.capacity[q]! - loads[q]!;
      const other = routes[q]!;
      if (room + 1e-9 >= m.demand[u]!) {
        const relief = Math.min(excess, m.demand[u]!);
        for (let j = 0; j <= other.length; j++) {
          const c = j === 0 ? m.start[q]! : other[j - 1]!;
          const e = j === other.length ? m.end[q]! : other[j]!;
          const detour = removal + d[c * n + u]! + d[u * n + e]! - d[c * n + e]!;
          if (better(relief, detour)) best = { relief, detour, position: i, other: q, otherPosition: j, swap: false };
        }
      }
      for (let j = 0; j < other.length; j++) {
        const v = other[j]!;
        const shift = m.demand[u]! - m.demand[v]!;
        if (shift <= 1e-9 || shift > room + 1e-9) continue;
        const c = j === 0 ? m.start[q]! : other[j - 1]!;
        const e = j === other.length - 1 ? m.end[q]! : other[j + 1]!;
        const detour =
          d[a * n + v]! + d[v * n + b]! - d[a * n + u]! - d[u * n + b]! + d[c * n + u]! + d[u * n + e]! - d[c * n + v]! - d[v * n + e]!;
        const relief = Math.min(excess, shift);
        if (better(relief, detour)) best = { relief, detour, position: i, other: q, otherPosition: j, swap: true };
      }
    }
  }
  return best;
}

function apply(m: ProblemData, routes: number[][], loads: number[], r: number, move: RoomMove): void {
  const route = routes[r]!;
  const other = routes[move.other]!;
  const u = route[move.position]!;
  if (move.swap) {
    const v = other[move.otherPosition]!;
    route[move.position] = v;
    other[move.otherPosition] = u;
    loads[r]! += m.demand[v]! - m.demand[u]!;
    loads[move.other]! += m.demand[u]! - m.demand[v]!;
  } else {
    route.splice(move.position, 1);
    other.splice(move.otherPosition, 0, u);
    loads[r]! -= m.demand[u]!;
    loads[move.other]! += m.demand[u]!;
  }
}
