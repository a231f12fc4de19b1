import { expect } from "chai";
import { checkLoadRules, type LoadFieldsOfRequest } from "../../checker/check-loads.js";

/** Depot 0, customers 1..4; two vehicles of capacity 5. */
const request: LoadFieldsOfRequest = {
  node_demands: [0, 3, 0, 0, 0],
  vehicles_capacity: [5, 5],
  node_pickups: [0, 0, 4, 0, 0],
  shipments: [{ pickup: 4, delivery: 3, amount: 2 }],
  node_extra_demands: [[0], [1], [2], [0], [0]],
  vehicles_extra_capacity: [[3], [3]],
};
const good = {
  routes: { "Vehicle 1": [0, 1, 4, 3, 2, 0] },
  loads_on_board: { "Vehicle 1": [3, 0, 2, 0, 4, 4] },
  extra_loads_on_board: { "Vehicle 1": [[3], [2], [2], [2], [0], [0]] },
};

/** The tests' result checker must catch every broken load rule, or the end-to-end tests prove nothing. */
describe("the independent load checker (checker/check-loads.ts)", () => {
  it("accepts a correct result", () => {
    expect(() => checkLoadRules(request, good)).not.to.throw();
  });

  it("catches a wrong loads_on_board, an overload on board, a broken or reversed shipment and an extra dimension over capacity", () => {
    expect(() => checkLoadRules(request, { ...good, loads_on_board: { "Vehicle 1": [3, 0, 2, 0, 4, 5] } })).to.throw(/loads_on_board\[5\]/);
    expect(() => checkLoadRules({ ...request, vehicles_capacity: [3, 3] }, good)).to.throw(/within capacity 3/);
    const reversed = {
      routes: { "Vehicle 1": [0, 1, 3, 4, 2, 0] },
      loads_on_board: { "Vehicle 1": [3, 0, -2, 0, 4, 4] },
      extra_loads_on_board: good.extra_loads_on_board,
    };
    expect(() => checkLoadRules(request, reversed)).to.throw(/pickup before delivery/);
    const split = {
      routes: { "Vehicle 0": [0, 1, 4, 0], "Vehicle 1": [0, 3, 2, 0] },
      loads_on_board: { "Vehicle 0": [3, 0, 2, 2], "Vehicle 1": [0, -2, 2, 2] },
      extra_loads_on_board: { "Vehicle 0": [[1], [0], [0], [0]], "Vehicle 1": [[2], [2], [0], [0]] },
    };
    expect(() => checkLoadRules({ ...request, vehicles_capacity: [9, 9] }, split)).to.throw(/both stops on one route/);
    expect(() => checkLoadRules({ ...request, vehicles_extra_capacity: [[2], [2]] }, good)).to.throw(/extra dimension 1 within capacity 2/);
  });

  it("catches a delivery after a pickup under pickups_after_deliveries, and fields where none belong", () => {
    const backhaul = { node_demands: [0, 1, 0], vehicles_capacity: [5], node_pickups: [0, 0, 1], pickups_after_deliveries: true };
    expect(() =>
      checkLoadRules(backhaul, { routes: { "Vehicle 0": [0, 1, 2, 0] }, loads_on_board: { "Vehicle 0": [1, 0, 1, 1] } }),
    ).not.to.throw();
    expect(() =>
      checkLoadRules(backhaul, { routes: { "Vehicle 0": [0, 2, 1, 0] }, loads_on_board: { "Vehicle 0": [1, 2, 1, 1] } }),
    ).to.throw(/delivery at node 1 after a pickup/);
    expect(() =>
      checkLoadRules(
        { node_demands: [0, 1], vehicles_capacity: [5] },
        { routes: { "Vehicle 0": [0, 1, 0] }, loads_on_board: { "Vehicle 0": [1, 0, 0] } },
      ),
    ).to.throw(/none in the result/);
  });
});
