import { expect } from "chai";
import { solveRequest } from "../../src/problem/solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { InlineSolver } from "../../src/worker/inline-solve.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import type { PlainCvrpRequest } from "../helpers/requests.js";

/** A random symmetric instance with `customers` customers on `vehicles` vehicles. */
function instance(customers: number, vehicles: number, seed: number, capacity = 100): SolveRequestInput {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const n = customers + 1;
  const xy = Array.from({ length: n }, () => [Math.floor(rand() * 100), Math.floor(rand() * 100)] as const);
  const distance_matrix = xy.map(([x1, y1]) => xy.map(([x2, y2]) => Math.round(Math.hypot(x1 - x2, y1 - y2))));
  return {
    node_num: n,
    vehicle_num: vehicles,
    distance_matrix,
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: [0, ...Array.from({ length: customers }, () => 1 + Math.floor(rand() * 5))],
    vehicles_capacity: Array(vehicles).fill(capacity),
    time_limit_seconds: 1,
  } as SolveRequestInput;
}

const job = (request: SolveRequestInput, strategy?: string) => ({
  requestJson: JSON.stringify(request),
  options: { requestId: "inline-test", timeLimitSeconds: 1, seed: 7, ...(strategy ? { strategy } : {}) },
});

describe("worker: tiny problems solved inline", () => {
  // The tripwire lifted: these tests judge what is solved inline and its results, not how fast (a
  // cold first solve on a loaded machine can take longer than the service's tripwire).
  const inline = new InlineSolver(null, 60_000);

  it("solves what the exhaustive search takes, with the same routes and cost as the solver thread's path", () => {
    for (const [customers, vehicles, seed] of [
      [1, 1, 1],
      [3, 1, 2],
      [4, 2, 3],
      [5, 2, 4],
    ] as const) {
      const request = instance(customers, vehicles, seed);
      const reply = inline.tryRun(job(request));
      expect(reply, `${customers} customers`).to.not.equal(null);
      expect(reply!.ok).to.equal(true);
      if (!reply!.ok || reply!.outcome.status !== "solved") throw new Error("not solved");
      const result = reply!.outcome.result;
      expect(result.strategy).to.equal("exact");
      // What the solver thread computes for the same job (solveRequest with the job's options).
      const threadOutcome = solveRequest(request, { requestId: "inline-test", timeLimitSeconds: 1, seed: 7 });
      if (threadOutcome.status !== "solved") throw new Error("thread path not solved");
      expect(result.routes).to.deep.equal(threadOutcome.result.routes);
      expect(result.total_cost).to.equal(threadOutcome.result.total_cost);
      // Checked independently (every customer once, capacity, distances, cost), not only against the other path.
      checkDistanceResult(request as unknown as PlainCvrpRequest, result as never);
    }
  });

  it("leaves to the solver thread what the exhaustive search does not take", () => {
    expect(inline.tryRun(job(instance(10, 2, 5))), "10 customers").to.equal(null);
    expect(inline.tryRun(job(instance(3, 1, 6), "hgs")), "pinned hgs").to.equal(null);
  });

  it("leaves infeasible tiny problems, cancelled jobs and bad JSON to the solver thread", () => {
    // Total demand above the one vehicle's capacity: nothing feasible, the thread's path answers.
    expect(inline.tryRun(job(instance(3, 1, 7, 1))), "infeasible").to.equal(null);
    const stop = new AbortController();
    stop.abort();
    expect(inline.tryRun(job(instance(3, 1, 8)), stop.signal), "cancelled").to.equal(null);
    expect(inline.tryRun({ requestJson: "{", options: { requestId: "x", timeLimitSeconds: 1 } }), "bad JSON").to.equal(null);
  });

  it("leaves a selection table that names a strategy this thread does not know to the solver thread", () => {
    const withPlugin = new InlineSolver([{ maxCustomers: 8, strategy: "not-registered-here" }]);
    expect(withPlugin.tryRun(job(instance(3, 1, 9)))).to.equal(null);
  });

  it("leaves to the solver thread a solve that ran past the tripwire", () => {
    const noTime = new InlineSolver(null, 0);
    expect(noTime.tryRun(job(instance(3, 1, 2)))).to.equal(null);
    expect(inline.tryRun(job(instance(3, 1, 2)))).to.not.equal(null);
  });
});
