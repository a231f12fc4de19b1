import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { violationReasons } from "../../src/problem/violations.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";

type Request = SolveRequestInput & ConstraintFields;

/** Depot 0 and four customers on a line, 10 apart; two vehicles of capacity 5. */
function line(extra: Partial<Request> = {}): Request {
  const pos = [0, 10, 20, 30, 40];
  return {
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: pos.map((a) => pos.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 3, 0, 0, 0],
    vehicles_capacity: [5, 5],
    ...extra,
  };
}

const everything: Partial<Request> = {
  node_pickups: [0, 0, 4, 0, 0],
  shipments: [{ pickup: 4, delivery: 3, amount: 2 }],
  node_extra_demands: [[0], [1], [2], [0], [0]],
  vehicles_extra_capacity: [[3], [3]],
};

function solved(req: Request) {
  const out = solveRequest(req, { requestId: "t", timeLimitSeconds: 2 });
  if (out.status !== "solved") throw new Error(out.error);
  return out.result;
}

describe("the result's loads on board (src/problem/load-result.ts)", () => {
  it("gives the load on board after each node, and the extra dimensions, per used vehicle", () => {
    const result = solved(line(everything));
    const [label] = Object.keys(result.routes);
    const route = result.routes[label!]!;
    // Recomputed here: deliveries left + pickups made + shipment amounts between their stops.
    let onBoard = route.reduce((sum, node) => sum + [0, 3, 0, 0, 0][node]!, 0);
    let extra = route.reduce((sum, node) => sum + [0, 1, 2, 0, 0][node]!, 0);
    const expected = [onBoard];
    const expectedExtra = [[extra]];
    for (const node of route.slice(1)) {
      onBoard += [0, 0, 4, 0, 0][node]! - [0, 3, 0, 0, 0][node]! + (node === 4 ? 2 : node === 3 ? -2 : 0);
      extra -= [0, 1, 2, 0, 0][node]!;
      expected.push(onBoard);
      expectedExtra.push([extra]);
    }
    expect(result.loads_on_board).to.deep.equal({ [label!]: expected });
    expect(result.extra_loads_on_board).to.deep.equal({ [label!]: expectedExtra });
    expect(Math.max(...expected)).to.be.at.most(5);
    expect(route.indexOf(4)).to.be.below(route.indexOf(3));
  });

  it("is absent for a request without the fields, and without extra dimensions only loads_on_board", () => {
    const plain = solved(line());
    expect(plain).not.to.have.property("loads_on_board");
    expect(plain).not.to.have.property("extra_loads_on_board");
    const pickups = solved(line({ node_pickups: [0, 0, 4, 0, 0] }));
    expect(pickups).to.have.property("loads_on_board");
    expect(pickups).not.to.have.property("extra_loads_on_board");
    expect(solved(line({ shipments: [] }))).not.to.have.property("loads_on_board");
  });
});

describe("the failure message names the broken load rule with amounts (src/problem/load-violations.ts)", () => {
  const why = (req: Request, routes: number[][]) => {
    const { problem } = compileRequest(req);
    return violationReasons(problem, evaluateSolution(problem, { routes }), { solution: { routes }, proven: [] });
  };

  it("capacity on board, at the node where it peaks", () => {
    expect(why(line({ node_pickups: [0, 0, 4, 3, 0] }), [[1, 2, 3], [4]])).to.deep.equal([
      "capacity exceeded on board on 1 route(s) by 2 in total (vehicle 0 has 7 on board after node 3 against its capacity 5)",
    ]);
  });

  it("backhaul order", () => {
    expect(
      why(line({ node_pickups: [0, 0, 2, 0, 0], pickups_after_deliveries: true }), [
        [2, 1],
        [3, 4],
      ]),
    ).to.deep.equal(["pickups_after_deliveries broken on 1 route(s) (vehicle 0 picks up at node 2 before delivering at node 1)"]);
  });

  it("shipments split between vehicles or reversed", () => {
    const req = line({
      node_demands: [0, 0, 0, 0, 0],
      shipments: [
        { pickup: 1, delivery: 2, amount: 1 },
        { pickup: 3, delivery: 4, amount: 1 },
      ],
    });
    expect(why(req, [[2, 1, 3], [4]])).to.deep.equal([
      "2 shipment(s) not served by one vehicle with the pickup first (shipment 0: " +
        "delivery node 2 before pickup node 1 on vehicle 0, shipment 1: pickup node 3 on " +
        "vehicle 0, delivery node 4 on vehicle 1)",
    ]);
  });

  it("an extra dimension's capacity", () => {
    const req = line({
      node_extra_demands: [
        [0, 0],
        [0, 2],
        [0, 2],
        [0, 0],
        [0, 0],
      ],
      vehicles_extra_capacity: [
        [9, 3],
        [9, 3],
      ],
    });
    expect(why(req, [[1, 2, 3, 4], []])).to.deep.equal([
      "capacity of extra dimension 2 exceeded on 1 route(s) by 1 in total (vehicle 0 carries 4 against its capacity 3)",
    ]);
  });
});

describe("the validate pre-check learns the load rules (src/problem/load-diagnostics.ts)", () => {
  const kinds = (req: Request) =>
    infeasibilities(compileRequest(req).problem).map(({ kind, node, evidence }) => ({ kind, node, evidence }));

  it("a pickup larger than every vehicle, and all pickups above the fleet", () => {
    expect(kinds(line({ node_pickups: [0, 0, 7, 4, 0] }))).to.deep.equal([
      { kind: "pickup_exceeds_capacity", node: 2, evidence: { pickup: 7, largest_capacity: 5, excess: 2 } },
      { kind: "total_pickup_exceeds_capacity", node: undefined, evidence: { total_pickup: 11, total_capacity: 10, excess: 1 } },
    ]);
  });

  it("a shipment heavier than every vehicle", () => {
    expect(kinds(line({ shipments: [{ pickup: 2, delivery: 4, amount: 6 }] }))).to.deep.equal([
      {
        kind: "shipment_exceeds_capacity",
        node: 2,
        evidence: { shipment: 0, pickup_node: 2, delivery_node: 4, amount: 6, largest_capacity: 5, excess: 1 },
      },
    ]);
  });

  it("an extra-dimension demand larger than every vehicle's, and in total above the fleet's", () => {
    const req = line({ node_extra_demands: [[0], [4], [2], [1], [0]], vehicles_extra_capacity: [[3], [2]] });
    expect(kinds(req)).to.deep.equal([
      { kind: "extra_demand_exceeds_capacity", node: 1, evidence: { dimension: 1, demand: 4, largest_capacity: 3, excess: 1 } },
      {
        kind: "total_extra_demand_exceeds_capacity",
        node: undefined,
        evidence: { dimension: 1, total_demand: 7, total_capacity: 5, excess: 2 },
      },
    ]);
  });

  it("a pair whose windows cannot be met in order (hard windows only)", () => {
    const windows = {
      node_time_windows: [
        [0, 1000],
        [0, 1000],
        [50, 60],
        [0, 1000],
        [0, 65],
      ] as [number, number][],
      node_service_time: [0, 0, 10, 0, 0],
      vehicle_speeds: [1, 2],
      shipments: [{ pickup: 2, delivery: 4, amount: 1 }],
    };
    // Vehicle 1 (speed 2) reaches node 2 at 10, waits until 50, serves until 60, drives 10 min: 70 > 65.
    expect(kinds(line(windows))).to.deep.equal([
      {
        kind: "shipment_windows_incompatible",
        node: 4,
        evidence: {
          shipment: 0,
          pickup_node: 2,
          delivery_node: 4,
          pickup_finish: 60,
          travel_minutes: 10,
          earliest_delivery_arrival: 70,
          window_end: 65,
          late_by: 5,
          vehicle: "Vehicle 1",
        },
      },
    ]);
    expect(kinds(line({ ...windows, late_penalty_per_min: 1 }))).to.deep.equal([]);
    expect(
      kinds(
        line({
          ...windows,
          node_time_windows: [
            [0, 1000],
            [0, 1000],
            [50, 60],
            [0, 1000],
            [0, 70],
          ],
        }),
      ),
    ).to.deep.equal([]);
  });

  it("fails a task at once with the same reasons and evidence, before any search", () => {
    const out = solveRequest(line({ shipments: [{ pickup: 2, delivery: 4, amount: 6 }] }), { requestId: "t", timeLimitSeconds: 2 });
    if (out.status !== "failed") throw new Error("expected a failed task");
    expect(out.error).to.equal(
      "No feasible solution exists: shipment 0 (node 2 to node 4) amount 6 exceeds the largest vehicle capacity 5 by 1",
    );
    expect(out.infeasibilities.map((i) => i.kind)).to.deep.equal(["shipment_exceeds_capacity"]);
    expect(out.strategy).to.equal(null);
  });

  it("says nothing for a request without the fields", () => {
    expect(kinds(line())).to.deep.equal([]);
  });
});
