import { expect } from "chai";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { Rng } from "../../strategies/core/rng.js";

/** A request with a plan: initial_routes with a list for every vehicle. */
export type PlanRequest = Omit<SolveRequestInput, "initial_routes" | "vehicle_locked_stops"> & {
  initial_routes: number[][];
  vehicle_locked_stops?: number[];
};

/** A random plan of every customer (some vehicles empty) with a random locked head on about half the routes. */
export function withRandomPlan(req: SolveRequestInput, seed: number): PlanRequest & { vehicle_locked_stops: number[] } {
  const rng = new Rng(seed);
  const depots = new Set([...req.start_nodes, ...req.end_nodes]);
  const routes: number[][] = Array.from({ length: req.vehicle_num }, () => []);
  const customers = Array.from({ length: req.node_num }, (_, i) => i).filter((i) => !depots.has(i));
  for (const c of rng.shuffle(customers)) routes[rng.int(req.vehicle_num)]!.push(c);
  const locked: number[] = routes.map((r) => (r.length > 0 && rng.next() < 0.6 ? 1 + rng.int(r.length) : 0));
  // At least one lock, so that every run tests one.
  const longest = routes.reduce<number>((best, r, v) => (r.length > routes[best]!.length ? v : best), 0);
  if (!locked.some((k) => k > 0)) locked[longest] = Math.min(2, routes[longest]!.length);
  return { ...req, initial_routes: routes, vehicle_locked_stops: locked };
}

/** Every vehicle's route begins with its locked stops, in order, and no locked stop is anywhere else. */
export function expectLocksKept(p: CompiledProblem, routes: readonly (readonly number[])[], what: string): void {
  const locks = p.locks;
  if (!locks) return;
  locks.stops.forEach((head, v) =>
    expect(routes[v]!.slice(0, head.length), `${what}: vehicle ${v}'s head`).to.deep.equal(Array.from(head)),
  );
  routes.forEach((route, v) =>
    route.forEach((c, k) => {
      if (locks.vehicle[c]! >= 0) expect([v, k + 1], `${what}: locked stop ${c}`).to.deep.equal([locks.vehicle[c], locks.position[c]]);
    }),
  );
}

/**
 * Two vehicles from depot 0: vehicle 0 locks 1 and then serves 3, vehicle 1 locks 2 and then
 * serves 4. The plan costs 46 (11.5 a stop); moving 3 behind 2, or 4 behind 3, saves 0.5 (45.5),
 * and without the locks one route 0-1-3-2-4-0 (27) would be cheapest.
 */
export function twoLockedRoutes(extra: Partial<SolveRequestInput> = {}): SolveRequestInput {
  return {
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: [
      [0, 10, 10, 10, 10],
      [10, 0, 2, 1, 20],
      [10, 2, 0, 1, 5],
      [10, 1, 1, 0, 4.5],
      [10, 20, 5, 4.5, 0],
    ],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 1, 1],
    vehicles_capacity: [10, 10],
    initial_routes: [
      [1, 3],
      [2, 4],
    ],
    vehicle_locked_stops: [1, 1],
    ...extra,
  } as SolveRequestInput;
}
