import { arrivalClose } from "./evaluate-rules.js";
import type { BreakRule, CompiledProblem } from "./problem.js";
import { lateAt, legMinutes, returnsToEnd, serviceBegin } from "./travel.js";

const EPS = 1e-9;
const TRAVEL = 0;
const TAKE = 1;
const MISS = 2;

/** The programme's arrays, reused from call to call (the search places breaks for every candidate it prices). */
let buffers = { missed: new Float64Array(4), late: new Float64Array(4), ready: new Float64Array(4), how: new Uint8Array(64) };

function scratch(width: number, steps: number): typeof buffers {
  if (buffers.missed.length < width || buffers.how.length < steps) {
    const size = Math.max(width, 2 * buffers.missed.length);
    buffers = {
      missed: new Float64Array(size),
      late: new Float64Array(size),
      ready: new Float64Array(size),
      how: new Uint8Array(Math.max(steps, 2 * buffers.how.length)),
    };
  }
  return buffers;
}

/**
 * Where vehicle v, leaving its start node at `departure`, takes its breaks along `route`: for each
 * break in order the position after whose service it starts (0: the start node before departure,
 * k: the route's k-th stop), or -1 when no place inside its window is left. A dynamic programme
 * over (position, breaks taken), O(stops x breaks): a state is better with fewer missed breaks,
 * then fewer late minutes, then an earlier time ready to leave. Leaving earlier never hurts what
 * follows (waiting is allowed and every later window stays reachable), so when the breaks fit
 * without lateness this placement finds it; a greedy rule that postpones breaks can miss it.
 */
export function placeBreaks(
  p: CompiledProblem,
  v: number,
  route: ArrayLike<number>,
  len: number,
  departure: number,
  breaks: readonly BreakRule[],
): Int32Array {
  const count = breaks.length;
  const width = count + 1;
  const { missed, late, ready, how } = scratch(width, (len + 1) * width);
  missed.fill(Number.POSITIVE_INFINITY, 0, width);
  const better = (m: number, l: number, r: number, j: number) =>
    m < missed[j]! || (m === missed[j]! && (l < late[j]! - EPS || (l <= late[j]! + EPS && r < ready[j]! - EPS)));
  const set = (k: number, j: number, m: number, l: number, r: number, code: number) => {
    missed[j] = m;
    late[j] = l;
    ready[j] = r;
    how[k * width + j] = code;
  };
  // At position k, breaks j = 0.. in order: taken here (inside its window) or given up.
  const takeHere = (k: number) => {
    for (let j = 0; j < count; j++) {
      if (missed[j] === Number.POSITIVE_INFINITY) continue;
      const b = breaks[j]!;
      const start = Math.max(ready[j]!, b.earliest);
      if (start <= b.latest + EPS) {
        if (better(missed[j]!, late[j]!, start + b.duration, j + 1)) set(k, j + 1, missed[j]!, late[j]!, start + b.duration, TAKE);
      } else if (better(missed[j]! + 1, late[j]!, ready[j]!, j + 1)) set(k, j + 1, missed[j]! + 1, late[j]!, ready[j]!, MISS);
    }
  };
  set(0, 0, 0, 0, departure, TRAVEL);
  takeHere(0);
  let prev = p.startNode[v]!;
  for (let k = 1; k <= len; k++) {
    const c = route[k - 1]!;
    const service = p.time!.serviceMin[c]!;
    for (let j = 0; j <= count; j++) {
      if (missed[j] === Number.POSITIVE_INFINITY) continue;
      const begin = serviceBegin(p, c, ready[j]! + legMinutes(p, v, prev, c));
      set(k, j, missed[j]!, late[j]! + lateAt(p, c, begin), begin + service, TRAVEL);
    }
    takeHere(k);
    prev = c;
  }
  // The end: breaks not taken are missed; the leg back may be late.
  const back = returnsToEnd(p, v);
  let best = -1;
  let bestKey = [Number.POSITIVE_INFINITY, 0, 0];
  for (let j = 0; j <= count; j++) {
    if (missed[j] === Number.POSITIVE_INFINITY) continue;
    const finish = back ? ready[j]! + legMinutes(p, v, prev, p.endNode[v]!) : ready[j]!;
    const key = [missed[j]! + count - j, late[j]! + (back ? Math.max(0, finish - arrivalClose(p, v)) : 0), finish];
    const wins =
      key[0]! < bestKey[0]! ||
      (key[0] === bestKey[0] && (key[1]! < bestKey[1]! - EPS || (key[1]! <= bestKey[1]! + EPS && key[2]! < bestKey[2]!)));
    if (wins) {
      best = j;
      bestKey = key;
    }
  }
  const placement = new Int32Array(count).fill(-1);
  for (let k = len, j = best; j > 0;) {
    const code = how[k * width + j]!;
    if (code === TRAVEL) k--;
    else {
      if (code === TAKE) placement[j - 1] = k;
      j--;
    }
  }
  return placement;
}
