import fc from "fast-check";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

/**
 * fast-check generator of valid solve requests with every feature switched on at random:
 * coordinates or asymmetric matrices, several depots, different start and end nodes,
 * heterogeneous capacities, costs, hard or soft windows, service times, speeds, working hours.
 */
export function arbitraryRequest(maxCustomers = 9): fc.Arbitrary<SolveRequestInput> {
  return fc
    .record({
      customers: fc.integer({ min: 1, max: maxCustomers }),
      depots: fc.integer({ min: 1, max: 2 }),
      vehicles: fc.integer({ min: 1, max: 4 }),
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      useCoords: fc.boolean(),
      asymmetric: fc.boolean(),
      cost: fc.boolean(),
      time: fc.boolean(),
      soft: fc.boolean(),
      hours: fc.boolean(),
      mixedEnds: fc.boolean(),
    })
    .map((o) => {
      let s = o.seed;
      const rand = () => {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        return s / 2 ** 32;
      };
      const n = o.depots + o.customers;
      const pos = Array.from({ length: n }, (): [number, number] => [Math.round(rand() * 100), Math.round(rand() * 100)]);
      const matrix = pos.map((a, i) =>
        pos.map((b, j) => (i === j ? 0 : Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) * (o.asymmetric ? 0.8 + 0.4 * rand() : 1)))),
      );
      const depot = (v: number) => v % o.depots;
      const req: SolveRequestInput = {
        objective: o.cost ? "min_total_cost" : "min_total_distance",
        node_num: n,
        vehicle_num: o.vehicles,
        distance_matrix: o.useCoords ? [] : matrix,
        ...(o.useCoords ? { node_positions: pos } : {}),
        start_nodes: Array.from({ length: o.vehicles }, (_, v) => depot(v)),
        end_nodes: Array.from({ length: o.vehicles }, (_, v) => (o.mixedEnds ? depot(v + 1) : depot(v))),
        node_demands: pos.map((_, i) => (i < o.depots ? 0 : 1 + Math.floor(rand() * 5))),
        vehicles_capacity: Array.from({ length: o.vehicles }, () => 5 + Math.floor(rand() * 15)),
      };
      if (o.cost) {
        req.vehicle_fixed_costs = Array.from({ length: o.vehicles }, () => Math.round(rand() * 50));
        req.vehicle_unit_distance_costs = Array.from({ length: o.vehicles }, () => 0.5 + Math.round(rand() * 10) / 10);
      }
      if (o.time) {
        req.node_time_windows = pos.map((_, i): [number, number] => {
          if (i < o.depots) return [0, 600];
          const a = Math.round(rand() * 300);
          return [a, a + 30 + Math.round(rand() * 200)];
        });
        req.node_service_time = pos.map((_, i) => (i < o.depots ? 0 : Math.round(rand() * 15)));
        req.vehicle_speeds = Array.from({ length: o.vehicles }, () => 0.5 + rand());
        if (o.soft) req.late_penalty_per_min = 1 + Math.round(rand() * 5);
        if (o.hours) req.max_working_hours = 4 + Math.round(rand() * 6);
        req.base_start_time = [8, Math.floor(rand() * 60), 0];
      }
      return req;
    });
}
