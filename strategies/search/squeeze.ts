import { evaluateRoute } from "../core/evaluator.js";
import { nearestNeighbours } from "../core/neighbours.js";
import { distanceBetween, type CompiledProblem } from "../core/problem.js";
import type { Workspace } from "../core/workspace.js";
import { TimeSegment } from "./time-segment.js";

/** A penalty below this is none, as the evaluator rounds lateness (core/schedule.ts). */
const NO_PENALTY = 1e-7;
/** Improving relocations one squeeze may make before it is given up. */
const MAX_SQUEEZE_MOVES = 5;
/** A relocated customer goes to the routes of this many of its nearest customers. */
const TARGET_NEIGHBOURS = 15;

/**
 * Prefix and suffix time segments of one route (depots included: index 0 the start, length + 1
 * the end), so that inserting or removing a customer is priced in O(1).
 */
class RouteSegments {
  prefix: TimeSegment[] = [];
  suffix: TimeSegment[] = [];
  load = 0;
  penalty = 0;

  constructor(
    readonly p: CompiledProblem,
    readonly v: number,
    public route: number[],
  ) {
    this.build();
  }

  node(k: number): number {
    return k === 0 ? this.p.startNode[this.v]! : k === this.route.length + 1 ? this.p.endNode[this.v]! : this.route[k - 1]!;
  }

  travel(a: number, b: number): number {
    return distanceBetween(this.p, a, b) / this.p.time!.speed[this.v]!;
  }

  build(): void {
    const m = this.route.length + 2;
    while (this.prefix.length < m) {
      this.prefix.push(new TimeSegment());
      this.suffix.push(new TimeSegment());
    }
    this.load = 0;
    for (const c of this.route) this.load += this.p.demand[c]!;
    visit(this, this.node(0), this.prefix[0]!);
    for (let k = 1; k < m; k++) {
      const s = this.prefix[k]!;
      copySegment(s, this.prefix[k - 1]!);
      appendNode(this, s, this.node(k - 1), this.node(k));
    }
    visit(this, this.node(m - 1), this.suffix[m - 1]!);
    for (let k = m - 2; k >= 0; k--) {
      visit(this, this.node(k), this.suffix[k]!);
      appendSegment(this, this.suffix[k]!, this.suffix[k + 1]!);
    }
    this.penalty = penaltyOf(this, this.prefix[m - 1]!, this.load);
  }
}

const single = new TimeSegment();
const trial = new TimeSegment();

function copySegment(into: TimeSegment, from: TimeSegment): void {
  into.set(from.duration, from.timeWarp, from.earliest, from.latest, from.first, from.last);
}

function visit(r: RouteSegments, node: number, into: TimeSegment): TimeSegment {
  const t = r.p.time!;
  const depot = node === r.p.startNode[r.v] || node === r.p.endNode[r.v];
  return into.setNode(node, t.twStartMin[node]!, t.twEndMin[node]!, depot ? 0 : t.serviceMin[node]!);
}

function appendNode(r: RouteSegments, s: TimeSegment, from: number, node: number): void {
  visit(r, node, single);
  s.append(r.travel(from, node), single.duration, single.timeWarp, single.earliest, single.latest, node);
}

function appendSegment(r: RouteSegments, s: TimeSegment, after: TimeSegment): void {
  s.append(r.travel(s.last, after.first), after.duration, after.timeWarp, after.earliest, after.latest, after.last);
}

/** Time warp, time over the duration cap and load over the capacity of a whole route's segment. */
function penaltyOf(r: RouteSegments, whole: TimeSegment, load: number): number {
  const over = Math.max(0, whole.duration - r.p.time!.maxRouteMin) + Math.max(0, load - r.p.capacity[r.v]!);
  const total = whole.timeWarp + over;
  return total < NO_PENALTY ? 0 : total;
}

/** Penalty of r with `c` inserted before its customer index `at` (0..length). */
function penaltyWith(r: RouteSegments, c: number, at: number): number {
  copySegment(trial, r.prefix[at]!);
  appendNode(r, trial, r.node(at), c);
  appendSegment(r, trial, r.suffix[at + 1]!);
  return penaltyOf(r, trial, r.load + r.p.demand[c]!);
}

/** Penalty of r without its customer at index `i` (0..length - 1). */
function penaltyWithout(r: RouteSegments, i: number): number {
  copySegment(trial, r.prefix[i]!);
  appendSegment(r, trial, r.suffix[i + 2]!);
  return penaltyOf(r, trial, r.load - r.p.demand[r.route[i]!]!);
}

/** Extra distance of inserting c before index `at` of r. */
function addedDistance(r: RouteSegments, c: number, at: number): number {
  const a = r.node(at);
  const b = r.node(at + 1);
  return distanceBetween(r.p, a, c) + distanceBetween(r.p, c, b) - distanceBetween(r.p, a, b);
}

/**
 * The squeeze of Nagata and Bräysy (2009), on routes whose feasibility is their load and hard
 * windows (window-insertion.ts's windowsOnly): `c`, which fits nowhere as it is, goes where it
 * breaks the least (time warp, duration and load excess), and relocations of customers out of the
 * broken routes that lower the total excess follow, the largest drop first, until nothing is
 * broken (the routes of `open` are then the workspace's, `c` placed) or no relocation helps (the
 * workspace is left as it was). Ejecting customers is then the caller's next step; a squeeze that
 * succeeds keeps every customer placed, which is why it comes first.
 */
export function squeeze(ws: Workspace, c: number, open: readonly number[]): boolean {
  const p = ws.p;
  const segments = new Map<number, RouteSegments>();
  for (const v of open) if (ws.lockedCount(v) === 0) segments.set(v, new RouteSegments(p, v, ws.routes[v]!.slice()));
  if (segments.size === 0) return false;
  const home = new Map<number, number>();
  for (const [v, r] of segments) for (const u of r.route) home.set(u, v);

  let first: { r: RouteSegments; at: number; key: [number, number] } | null = null;
  for (const r of segments.values())
    for (let at = 0; at <= r.route.length; at++) {
      const key: [number, number] = [penaltyWith(r, c, at) - r.penalty, addedDistance(r, c, at)];
      if (!first || key[0] < first.key[0] - NO_PENALTY || (key[0] < first.key[0] + NO_PENALTY && key[1] < first.key[1]))
        first = { r, at, key };
    }
  if (!first) return false;
  first.r.route.splice(first.at, 0, c);
  first.r.build();
  home.set(c, first.r.v);

  const neighbours = nearestNeighbours(p, TARGET_NEIGHBOURS);
  for (let move = 0; move < MAX_SQUEEZE_MOVES; move++) {
    const broken = [...segments.values()].filter((r) => r.penalty > 0);
    if (broken.length === 0) return commit(ws, segments, c);
    let best: { from: RouteSegments; i: number; to: RouteSegments; at: number; gain: number; extra: number } | null = null;
    for (const from of broken)
      for (let i = 0; i < from.route.length; i++) {
        const u = from.route[i]!;
        const relief = from.penalty - penaltyWithout(from, i);
        if (relief <= NO_PENALTY) continue;
        const targets = new Set<number>();
        for (const m of neighbours[u]!) {
          const w = home.get(m);
          if (w !== undefined && w !== from.v) targets.add(w);
        }
        for (const w of targets) {
          const to = segments.get(w)!;
          for (let at = 0; at <= to.route.length; at++) {
            const gain = relief - (penaltyWith(to, u, at) - to.penalty);
            if (gain <= NO_PENALTY) continue;
            const extra = addedDistance(to, u, at);
            if (!best || gain > best.gain + NO_PENALTY || (gain > best.gain - NO_PENALTY && extra < best.extra))
              best = { from, i, to, at, gain, extra };
          }
        }
      }
    if (!best) return false;
    const u = best.from.route.splice(best.i, 1)[0]!;
    best.to.route.splice(best.at, 0, u);
    best.from.build();
    best.to.build();
    home.set(u, best.to.v);
  }
  return false;
}

/** Writes the squeezed routes into the workspace when the evaluator finds every one feasible. */
function commit(ws: Workspace, segments: Map<number, RouteSegments>, c: number): boolean {
  const scored = [...segments.values()].map((r) => ({ r, score: evaluateRoute(ws.p, r.v, r.route) }));
  if (scored.some((s) => !s.score.feasible)) return false;
  for (const { r, score } of scored) ws.setRoute(r.v, r.route, score);
  const at = ws.unassigned.lastIndexOf(c);
  if (at >= 0) ws.unassigned.splice(at, 1);
  return true;
}
