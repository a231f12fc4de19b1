import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { Rng } from "../../strategies/core/rng.js";
import { withOpenEnd } from "../../strategies/search/open-routes.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";

/** A used route of a random plan: its price by the route model and the floor the moves prune on. */
export interface RouteFloor {
  route: number;
  /** The route's travel and time-cost floor, plus its load penalty (no part of the floor). */
  bound: number;
  /** The route's price by the route model. */
  cost: number;
  /** Whether the route's vehicle pays for its time. */
  timeCosted: boolean;
}

/** Loads a random plan of `req` (seeded by `seed`) at penalties `pen` and reads each used route's floor and price. */
export function routeFloors(req: SolveRequestInput, seed: number, pen: Penalties): RouteFloor[] {
  const m = buildProblemData(withOpenEnd(compileRequest(req).problem));
  const rs = new Routes(m);
  rs.penalties = pen;
  const rng = new Rng(seed);
  const routes: number[][] = Array.from({ length: m.routes }, () => []);
  for (const c of rng.shuffle(Array.from(m.customers))) routes[rng.int(m.routes)]!.push(c);
  rs.loadRoutes(routes);
  const out: RouteFloor[] = [];
  for (let r = 0; r < m.routes; r++) {
    const len = rs.length[r]!;
    if (len === 0) continue;
    const distance = rs.fwd[r]![len + 1]!;
    const floor = rs.costs.travel(r, distance) + rs.costs.timeFloor(r, distance, rs.serv[r]![len + 1]!);
    const load = rs.load[r]![len]! - m.capacity[r]!;
    out.push({ route: r, bound: floor + (load > 0 ? pen.load * load : 0), cost: rs.cost[r]!, timeCosted: !!m.timeCostPerMin?.[r] });
  }
  return out;
}
