import { expect } from "chai";
import { readFileSync } from "node:fs";
import type { PollSolved, SolveRequest } from "../../clients/typescript/src/index.js";
import { sdkClient, TEST_WAIT } from "../helpers/sdk.js";
import { startStack, type Stack } from "../helpers/stack.js";

interface Golden {
  name: string;
  request: SolveRequest;
  result: Record<string, unknown>;
}

/**
 * Recorded with the solver before the load rules existed (commit 8ea7734): each request's solved result
 * with a fixed seed and an iteration budget that runs out long before the time limit, so the
 * answer does not depend on the machine. `time`, `request_id` and `solver_version` left out.
 * The ALNS entry was recorded again when ALNS moved onto the one local search (same cost, the
 * routes on other vehicles): a change of the search, not of what a request without load fields means.
 */
const GOLDEN = JSON.parse(readFileSync(new URL("../fixtures/no-load-fields-golden.json", import.meta.url), "utf8")) as Golden[];

/** The load rules' promise: "a request without these fields gives exactly what it gives today". */
describe("a request without the load fields gives exactly what it gave before them", function () {
  this.timeout(180_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1 });
  });
  after(async () => stack?.stop());

  async function solved(request: SolveRequest, user: string): Promise<Record<string, unknown>> {
    const client = sdkClient(stack.baseUrl, await stack.account(user, "pro"));
    const done = await client.waitForResult((await client.submit(request)).request_id, TEST_WAIT);
    if (!done.success) throw new Error(done.error);
    const { time, request_id, solver_version, ...rest } = (done as PollSolved).result;
    expect([time, request_id, solver_version].every((x) => x !== undefined)).to.equal(true);
    return rest;
  }

  for (const golden of GOLDEN) {
    it(`${golden.name}: the same routes, costs, loads, times and fields, and no loads on board`, async () => {
      const result = await solved(golden.request, `same-${golden.name}`);
      expect(result).not.to.have.any.keys("loads_on_board", "extra_loads_on_board");
      expect(result).to.deep.equal(golden.result);
    });
  }

  it("the same with the fields present but unused (no shipments, backhauls off)", async () => {
    const golden = GOLDEN.find((g) => g.name === "cvrp-40-hgs")!;
    const result = await solved({ ...golden.request, shipments: [], pickups_after_deliveries: false }, "same-unused");
    expect(result).to.deep.equal(golden.result);
  });
});
