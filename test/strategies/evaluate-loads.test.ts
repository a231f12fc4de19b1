import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateRoute, evaluateSolution, type RouteSchedule } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { loadArb, loadInstance } from "./load-problems.js";

/** One depot (0) and four customers on a line, one vehicle of capacity 10. */
function line(fields: ConstraintFields, demands = [0, 0, 0, 0, 0]): SolveRequestInput {
  const pos = [0, 1, 2, 3, 4];
  return {
    objective: "min_total_distance",
    node_num: 5,
    vehicle_num: 1,
    distance_matrix: pos.map((a) => pos.map((b) => Math.abs(a - b))),
    start_nodes: [0],
    end_nodes: [0],
    node_demands: demands,
    vehicles_capacity: [10],
    ...fields,
  } as SolveRequestInput;
}

describe("the evaluator's load rules (core/evaluate-loads.ts, constraints.md second table)", () => {
  it("counts deliveries still on board plus pickups made so far against the capacity", () => {
    const { problem: p } = compileRequest(line({ node_pickups: [0, 0, 6, 0, 6] }, [0, 6, 0, 4, 0]));
    // 10 on board at the start, 4 after node 1, 10 after 2, 6 after 3, 12 after 4: over by 2.
    const schedule = {} as RouteSchedule;
    const score = evaluateRoute(p, 0, [1, 2, 3, 4], 4, schedule);
    expect(score.peakOnBoard).to.equal(12);
    expect(score.capacityExcess).to.equal(2);
    expect(score.feasible).to.equal(false);
    expect(schedule.onBoard).to.deep.equal([10, 4, 10, 6, 12, 12]);
    expect(schedule.loads).to.deep.equal([0, 6, 6, 10, 10, 10]);
    // Delivering 4 first: 10, 6, 0, 6, 12 -> still 12 at the end; dropping the last pickup fits.
    expect(evaluateRoute(p, 0, [1, 2, 3]).feasible).to.equal(true);
  });

  it("refuses a delivery after a pickup under pickups_after_deliveries, and only then", () => {
    const fields = { node_pickups: [0, 0, 3, 0, 0] };
    const backhaul = compileRequest(line({ ...fields, pickups_after_deliveries: true }, [0, 2, 0, 2, 0])).problem;
    const free = compileRequest(line(fields, [0, 2, 0, 2, 0])).problem;
    expect(evaluateRoute(backhaul, 0, [1, 2, 3]).orderViolations).to.equal(1);
    expect(evaluateRoute(backhaul, 0, [1, 2, 3]).feasible).to.equal(false);
    expect(evaluateRoute(backhaul, 0, [1, 3, 2]).feasible).to.equal(true);
    expect(evaluateRoute(backhaul, 0, [2, 4]).feasible, "a route of pickups only is allowed").to.equal(true);
    expect(evaluateRoute(free, 0, [1, 2, 3]).feasible).to.equal(true);
  });

  it("needs both stops of a shipment on one route, pickup first, with the amount on board in between", () => {
    const { problem: p } = compileRequest(
      line({
        shipments: [
          { pickup: 1, delivery: 3, amount: 7 },
          { pickup: 4, delivery: 2, amount: 5 },
        ],
      }),
    );
    const schedule = {} as RouteSchedule;
    const good = evaluateRoute(p, 0, [1, 4, 2, 3], 4, schedule);
    expect(schedule.onBoard).to.deep.equal([0, 7, 12, 7, 0, 0]);
    expect(good.capacityExcess).to.equal(2);
    expect(good.orderViolations).to.equal(0);
    expect(evaluateRoute(p, 0, [1, 3, 4, 2]).feasible).to.equal(true);
    expect(evaluateRoute(p, 0, [3, 1, 4, 2]).orderViolations, "delivery before its pickup").to.be.greaterThan(0);
    expect(evaluateRoute(p, 0, [1, 4, 2]).orderViolations, "a pickup without its delivery").to.equal(1);
    // Split over two vehicles: each route breaks the pairing.
    const two = compileRequest({
      ...line({ shipments: [{ pickup: 1, delivery: 3, amount: 1 }] }),
      vehicle_num: 2,
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      vehicles_capacity: [10, 10],
    } as SolveRequestInput).problem;
    const split = evaluateSolution(two, {
      routes: [
        [1, 2],
        [3, 4],
      ],
    });
    expect(split.feasible).to.equal(false);
    expect(evaluateSolution(two, { routes: [[1, 2, 3], [4]] }).feasible).to.equal(true);
  });

  it("bounds each extra dimension's delivered total by the vehicle's capacity in it", () => {
    const { problem: p } = compileRequest(
      line(
        {
          node_extra_demands: [
            [0, 0],
            [2, 1],
            [2, 1],
            [2, 1],
            [2, 1],
          ],
          vehicles_extra_capacity: [[7, 4]],
        },
        [0, 1, 1, 1, 1],
      ),
    );
    const schedule = {} as RouteSchedule;
    const score = evaluateRoute(p, 0, [1, 2, 3, 4], 4, schedule);
    expect(score.capacityExcess).to.equal(1);
    expect(schedule.extraOnBoard).to.deep.equal([
      [8, 4],
      [6, 3],
      [4, 2],
      [2, 1],
      [0, 0],
      [0, 0],
    ]);
    expect(evaluateRoute(p, 0, [1, 2, 3]).feasible).to.equal(true);
  });

  it("agrees with a walk along the route on random problems (every load kind)", () => {
    fc.assert(
      fc.property(loadArb("none", 10), (o) => {
        const req = loadInstance(o);
        const { problem: p } = compileRequest(req);
        // Too few customers to pair: no load rule at all (checked in the last test).
        if (!p.loads) return;
        const rng = new Rng(o.seed);
        const route = rng.shuffle(Array.from(p.customers)).slice(0, 1 + rng.int(p.customers.length));
        const v = rng.int(p.vehicleCount);
        const demand = req.node_demands!;
        const pickup = req.node_pickups ?? [];
        let onBoard = route.reduce((sum, c) => sum + demand[c]!, 0);
        let peak = onBoard;
        let violations = 0;
        let pickedUp = false;
        for (const [k, c] of route.entries()) {
          onBoard += (pickup[c] ?? 0) - demand[c]!;
          for (const s of req.shipments ?? []) {
            if (s.pickup === c) {
              onBoard += s.amount;
              const at = route.indexOf(s.delivery);
              if (at < k) violations++;
            }
            if (s.delivery === c) {
              onBoard -= s.amount;
              const at = route.indexOf(s.pickup);
              if (at < 0 || at > k) violations++;
            }
          }
          if (req.pickups_after_deliveries && demand[c]! > 0 && pickedUp) violations++;
          if ((pickup[c] ?? 0) > 0) pickedUp = true;
          peak = Math.max(peak, onBoard);
        }
        let excess = Math.max(0, peak - req.vehicles_capacity[v]!);
        const D = req.vehicles_extra_capacity?.[0]?.length ?? 0;
        for (let d = 0; d < D; d++)
          excess += Math.max(0, route.reduce((sum, c) => sum + req.node_extra_demands![c]![d]!, 0) - req.vehicles_extra_capacity![v]![d]!);
        const score = evaluateRoute(p, v, route);
        expect(score.peakOnBoard).to.be.closeTo(peak, 1e-9);
        expect(score.capacityExcess).to.be.closeTo(excess, 1e-9);
        expect(score.orderViolations).to.equal(violations);
        expect(score.feasible).to.equal(excess <= 1e-9 && violations === 0);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves a problem without the fields exactly as it was (no load fields on the score or schedule)", () => {
    const { problem: p } = compileRequest(line({}, [0, 3, 3, 3, 3]));
    expect(p.loads ?? null).to.equal(null);
    const schedule = {} as RouteSchedule;
    const score = evaluateRoute(p, 0, [1, 2, 3, 4], 4, schedule);
    expect(score).to.deep.equal({
      distance: 8,
      cost: 8,
      load: 12,
      capacityExcess: 2,
      lateMinutes: 0,
      latePenalty: 0,
      durationMin: 0,
      durationExcessMin: 0,
      departureMin: 0,
      distanceExcess: 0,
      stopsExcess: 0,
      forbidden: 0,
      feasible: false,
    });
    expect(Object.keys(schedule).sort()).to.deep.equal(["arrive", "leave", "loads", "nodes"]);
  });
});
