import fc from "fast-check";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import type { Penalties } from "../../strategies/search/penalties.js";
import { buildModel } from "../../strategies/search/identical-vehicles-model.js";
import type { ProblemData } from "../../strategies/search/problem-data.js";
import { scratchRouteCost } from "./fleet-problems.js";

/**
 * A random single-depot problem with optional customers (prizes as in PCVRPTW: about 0.75 to
 * 2.25 x demand, at least 1, scaled by `prize`), identical vehicles, binding windows with service
 * times or no time dimension, optionally a working-hours cap; some customers required and
 * allow_unassigned on request.
 */
export function prizeProblem(o: {
  customers: number;
  seed: number;
  windows: boolean;
  hours: boolean;
  prize: number;
  required: boolean;
  allowUnassigned: boolean;
}): SolveRequestInput {
  let s = o.seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const n = o.customers + 1;
  const pos = Array.from({ length: n }, (): [number, number] => [Math.round(rand() * 100), Math.round(rand() * 100)]);
  const demands = pos.map((_, i) => (i === 0 ? 0 : 1 + Math.floor(rand() * 20)));
  const total = demands.reduce((a, b) => a + b, 0);
  const capacity = Math.max(25, Math.round(total / (2 + Math.floor(rand() * 5))));
  const vehicles = Math.ceil(total / capacity) + 2;
  const matrix = pos.map((a) => pos.map((b) => Math.floor(10 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 10));
  const req: SolveRequestInput = {
    objective: "min_total_distance",
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix: matrix,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: demands,
    vehicles_capacity: Array(vehicles).fill(capacity),
    node_skip_penalties: demands.map((q, i) =>
      i === 0 || (o.required && rand() < 0.3) ? null : Math.max(1, Math.round(o.prize * q * (0.75 + 1.5 * rand()))),
    ),
    allow_unassigned: o.allowUnassigned,
  };
  if (o.windows) {
    const horizon = 300 + Math.round(rand() * 500);
    req.node_time_windows = pos.map((_, i): [number, number] => {
      if (i === 0) return [0, horizon];
      const open = Math.floor(matrix[0]![i]! + rand() * Math.max(0, horizon - 2 * matrix[0]![i]! - 20));
      return [open, Math.min(horizon, open + 5 + Math.round(rand() * (rand() < 0.5 ? 30 : 200)))];
    });
    req.node_service_time = pos.map((_, i) => (i === 0 ? 0 : 10));
    req.vehicle_speeds = Array(vehicles).fill(1);
    if (o.hours) req.max_working_hours = (horizon * (0.3 + rand() * 0.5)) / 60;
  }
  return req;
}

/** Options of prizeProblem drawn at random, with `minCustomers` to 40 customers. */
export const prizeArb = (minCustomers: number) =>
  fc.record({
    customers: fc.integer({ min: minCustomers, max: 40 }),
    seed: fc.integer({ min: 1, max: 1e6 }),
    windows: fc.boolean(),
    hours: fc.boolean(),
    prize: fc.constantFrom(0.3, 1, 3, 10),
    required: fc.boolean(),
    allowUnassigned: fc.boolean(),
  });

/** The identical-vehicles model of a problem that has one (a test failure otherwise). */
export function modelOf(p: CompiledProblem): ProblemData {
  const outcome = buildModel(p);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.model;
}

/** Penalty prices of load, excess duration and time warp, for pricing tests. */
export const penaltyArb = fc.record({
  load: fc.double({ min: 0.1, max: 50, noNaN: true }),
  duration: fc.double({ min: 0.1, max: 50, noNaN: true }),
  timeWarp: fc.double({ min: 0.1, max: 50, noNaN: true }),
});

/**
 * Penalised cost of the routes from scratch (the evaluator's routes, route k on vehicle k) plus the model's
 * skip price of every customer on none.
 */
export function scratchTotal(p: CompiledProblem, m: ProblemData, pen: Penalties, routes: number[][]): number {
  const served = new Set(routes.flat());
  let total = routes.reduce((sum, r, v) => sum + scratchRouteCost(p, v, pen, r), 0);
  for (const c of m.customers) if (!served.has(c)) total += m.skipPrice![c]!;
  return total;
}
