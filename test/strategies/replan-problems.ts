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
