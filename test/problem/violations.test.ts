import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { violationReasons } from "../../src/problem/violations.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";

/** Four customers on a line, 10 apart; two vehicles of capacity 10. */
function line(extra: Partial<SolveRequestInput> = {}): SolveRequestInput {
  const pos = [0, 10, 20, 30, 40];
  return {
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: pos.map((a) => pos.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 4, 4, 4, 4],
    vehicles_capacity: [10, 10],
    ...extra,
  };
}

describe("the failure message of an infeasible answer (src/problem/violations.ts)", () => {
  it("names only capacity, with the amounts, on a problem without a time dimension", () => {
    const { problem } = compileRequest(line());
    const why = violationReasons(problem, evaluateSolution(problem, { routes: [[1, 2, 3], [4]] }));
    expect(why).to.deep.equal(["capacity exceeded on 1 route(s) by 2 in total (vehicle 0 carries 12 against its capacity 10)"]);
  });

  it("names missed hard windows and the working-hours cap, with minutes, only when they are broken", () => {
    const windows = line({
      node_time_windows: [
        [0, 1000],
        [0, 1000],
        [0, 1000],
        [0, 1000],
        [0, 45],
      ],
      node_service_time: [0, 0, 0, 0, 0],
      vehicle_speeds: [1, 1],
      max_working_hours: 1.5,
    });
    const { problem } = compileRequest(windows);
    // Vehicle 0 drives 0-30-20-10-40 (node 4 reached at minute 80, 35 min late) and back: 120 min, 30 over 90.
    const why = violationReasons(problem, evaluateSolution(problem, { routes: [[3, 2, 1, 4], []] }));
    expect(why).to.have.length(3);
    expect(why[0]).to.equal("capacity exceeded on 1 route(s) by 6 in total (vehicle 0 carries 16 against its capacity 10)");
    expect(why[1]).to.equal("hard time windows missed on 1 route(s) by 35 min in total (vehicle 0 35 min late)");
    expect(why[2]).to.equal("working-hours cap of 90 min exceeded on 1 route(s) by 30 min in total (vehicle 0 works 120 min)");
    // On time but overloaded: capacity alone, though the problem has windows and working hours.
    const overloaded = violationReasons(problem, evaluateSolution(problem, { routes: [[4, 3, 2], [1]] }));
    expect(overloaded).to.deep.equal(["capacity exceeded on 1 route(s) by 2 in total (vehicle 0 carries 12 against its capacity 10)"]);
  });

  it("is what a failed solve says when no packing exists, naming nothing but what is violated", () => {
    // Three demands of 6 into two vehicles of 10: total 18 <= 20 and each fits, yet no packing does.
    const outcome = solveRequest(
      line({
        node_num: 4,
        distance_matrix: [
          [0, 1, 1, 1],
          [1, 0, 1, 1],
          [1, 1, 0, 1],
          [1, 1, 1, 0],
        ],
        node_demands: [0, 6, 6, 6],
      }),
      {
        requestId: "t",
        timeLimitSeconds: 1,
        maxIterations: 2000,
      },
    );
    expect(outcome.status).to.equal("failed");
    if (outcome.status !== "failed") return;
    expect(outcome.error).to.match(/^No feasible solution found within the time limit: /);
    expect(outcome.error).to.match(/capacity exceeded on 1 route\(s\) by 2 in total|could not be placed/);
    expect(outcome.error).to.not.match(/window|working-hours/);
  });
});
