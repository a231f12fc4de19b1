import { distanceBetween, type CompiledProblem } from "./problem.js";
import type { Rng } from "./rng.js";

const EPS = 1e-9;

/**
 * Packs the customers' demands into the actual vehicles by capacity, as tight bin packing needs:
 * best-fit decreasing (each demand, largest first, into the vehicle it leaves least room in),
 * then a local search on the total excess load (relocate a customer, or swap two, between
 * vehicles) with random kicks when it stalls. Geography counts only as a tie-break (a customer
 * goes, among equal fits, to the vehicle whose customers are nearer), because here only a fit
 * matters: the search that runs afterwards makes the routes short. Returns the vehicle of each
 * customer (indexed by node; -1 at depots) or null when no packing was found by `stop`.
 */
export function packFleet(p: CompiledProblem, rng: Rng, stop: () => boolean): Int32Array | null {
  const vehicles = p.vehicleCount;
  const capacity = p.capacity;
  const demand = p.demand;
  const load = new Float64Array(vehicles);
  const of = new Int32Array(p.nodeCount).fill(-1);
  const members: number[][] = Array.from({ length: vehicles }, () => []);
  const order = Array.from(p.customers).sort((a, b) => demand[b]! - demand[a]! || a - b);
  const place = (c: number, v: number) => {
    of[c] = v;
    load[v] = load[v]! + demand[c]!;
    members[v]!.push(c);
  };
  const unplace = (c: number) => {
    const v = of[c]!;
    load[v] = load[v]! - demand[c]!;
    const list = members[v]!;
    list.splice(list.indexOf(c), 1);
    of[c] = -1;
  };
  // Distance from a customer to a vehicle's first member (or its start node when empty): the tie-break.
  const nearness = (c: number, v: number) => distanceBetween(p, c, members[v]![0] ?? p.startNode[v]!);
  for (const c of order) {
    let best = -1;
    let bestRoom = Number.POSITIVE_INFINITY;
    let roomiest = 0;
    for (let v = 0; v < vehicles; v++) {
      const room = capacity[v]! - load[v]! - demand[c]!;
      if (room >= -EPS && (room < bestRoom - EPS || (Math.abs(room - bestRoom) <= EPS && nearness(c, v) < nearness(c, best)))) {
        best = v;
        bestRoom = room;
      }
      if (capacity[v]! - load[v]! > capacity[roomiest]! - load[roomiest]!) roomiest = v;
    }
    place(c, best >= 0 ? best : roomiest);
  }

  const excessOf = (v: number, delta = 0) => Math.max(0, load[v]! + delta - capacity[v]!);
  let excess = 0;
  for (let v = 0; v < vehicles; v++) excess += excessOf(v);
  let sinceKick = 0;
  while (excess > EPS) {
    if (stop()) return null;
    let improved = false;
    for (let a = 0; a < vehicles && !improved; a++) {
      if (excessOf(a) <= EPS) continue;
      for (const c of members[a]!.slice()) {
        const dc = demand[c]!;
        for (let b = 0; b < vehicles && !improved; b++) {
          if (b === a) continue;
          const before = excessOf(a) + excessOf(b);
          if (excessOf(a, -dc) + excessOf(b, dc) < before - EPS) {
            unplace(c);
            place(c, b);
            excess -= before - excessOf(a) - excessOf(b);
            improved = true;
            break;
          }
          for (const e of members[b]!) {
            const shift = dc - demand[e]!;
            if (shift <= EPS) continue;
            if (excessOf(a, -shift) + excessOf(b, shift) < before - EPS) {
              unplace(c);
              unplace(e);
              place(c, b);
              place(e, a);
              excess -= before - excessOf(a) - excessOf(b);
              improved = true;
              break;
            }
          }
        }
        if (improved) break;
      }
    }
    if (improved) continue;
    // Stalled: a few random swaps between vehicles that keep the excess from growing much.
    sinceKick++;
    if (sinceKick > 1000) return null;
    for (let k = 0; k < 3; k++) {
      const c = order[rng.int(order.length)]!;
      const e = order[rng.int(order.length)]!;
      const a = of[c]!;
      const b = of[e]!;
      if (a === b) continue;
      unplace(c);
      unplace(e);
      place(c, b);
      place(e, a);
    }
    excess = 0;
    for (let v = 0; v < vehicles; v++) excess += excessOf(v);
  }
  return of;
}
