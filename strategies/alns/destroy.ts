import type { Rng } from "../core/rng.js";
import type { Workspace } from "../core/workspace.js";

export type DestroyOperator = (ws: Workspace, count: number, rng: Rng) => void;

function routedCustomers(ws: Workspace): number[] {
  const out: number[] = [];
  for (const r of ws.routes) for (const c of r) out.push(c);
  return out;
}

/** Removes `count` customers chosen uniformly. */
export const randomRemoval: DestroyOperator = (ws, count, rng) => {
  const routed = rng.shuffle(routedCustomers(ws));
  for (let i = 0; i < Math.min(count, routed.length); i++) ws.remove(routed[i]!);
};

/** Removes the customers whose removal saves most, with randomisation (Ropke & Pisinger). */
export const worstRemoval: DestroyOperator = (ws, count, rng) => {
  const p = ws.p;
  const n = p.nodeCount;
  for (let removed = 0; removed < count; removed++) {
    const gains: { c: number; gain: number }[] = [];
    ws.routes.forEach((route, v) => {
      route.forEach((c, i) => {
        const prev = i === 0 ? p.startNode[v]! : route[i - 1]!;
        const next = i === route.length - 1 ? p.endNode[v]! : route[i + 1]!;
        gains.push({ c, gain: p.dist[prev * n + c]! + p.dist[c * n + next]! - p.dist[prev * n + next]! });
      });
    });
    if (gains.length === 0) return;
    gains.sort((a, b) => b.gain - a.gain);
    const pick = Math.floor(Math.pow(rng.next(), 4) * gains.length);
    ws.remove(gains[pick]!.c);
  }
};

/** Shaw removal: a seed customer and the ones most related to it (distance, and time when on). */
export const relatedRemoval: DestroyOperator = (ws, count, rng) => {
  const p = ws.p;
  const n = p.nodeCount;
  const routed = routedCustomers(ws);
  if (routed.length === 0) return;
  const seed = routed[rng.int(routed.length)]!;
  const t = p.time;
  const relatedness = (c: number) =>
    p.dist[seed * n + c]! +
    p.dist[c * n + seed]! +
    (t ? Math.abs(t.twStartMin[seed]! - t.twStartMin[c]!) + Math.abs(t.twEndMin[seed]! - t.twEndMin[c]!) : 0);
  routed.sort((a, b) => relatedness(a) - relatedness(b));
  const chosen: number[] = [];
  for (const c of routed) {
    if (chosen.length >= count) break;
    if (rng.next() < 0.85 || chosen.length === 0) chosen.push(c);
  }
  for (const c of chosen) ws.remove(c);
};

/** Empties whole routes (small ones more likely), so fleet size and vehicle choice can change. */
export const routeRemoval: DestroyOperator = (ws, count, rng) => {
  const used = ws.routes.map((r, v) => ({ v, len: r.length })).filter((x) => x.len > 0);
  if (used.length === 0) return;
  used.sort((a, b) => a.len - b.len);
  let removed = 0;
  while (removed < count && used.length > 0) {
    const idx = Math.floor(Math.pow(rng.next(), 2) * used.length);
    const { v } = used.splice(idx, 1)[0]!;
    for (const c of ws.routes[v]!.slice()) {
      ws.remove(c);
      removed++;
    }
  }
};

export const DESTROY_OPERATORS: readonly { name: string; run: DestroyOperator }[] = [
  { name: "random", run: randomRemoval },
  { name: "worst", run: worstRemoval },
  { name: "related", run: relatedRemoval },
  { name: "route", run: routeRemoval },
];
