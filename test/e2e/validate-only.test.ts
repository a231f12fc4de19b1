import { expect } from "chai";
import { fileURLToPath } from "node:url";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { usageOf } from "../helpers/usage.js";

const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));

interface Report {
  would_be_accepted: boolean;
  rejection: { status: number; code: string; error: string; detail?: { loc: string[]; msg: string; type: string }[] } | null;
  time_limit_seconds: number | null;
  warnings: string[];
  infeasible: boolean;
  infeasibilities: { kind: string; message: string; node?: number; evidence: Record<string, unknown> }[];
}

async function validate(client: ApiClient, body: object): Promise<{ status: number; report: Report; body: unknown }> {
  const { data, error, response } = await client.POST("/api/v1/solve/validate", { body: body as never });
  return { status: response.status, report: data?.result as Report, body: data ?? error };
}

/**
 * Customers on a line from the depot at x = 0, one vehicle speed of 1 distance unit per minute,
 * every time-related infeasibility built in on purpose (see the expected evidence below).
 */
function troubledRequest(windowOfNode3: [number, number]) {
  const xs = [0, 10, 50, 20, 90, 85, 30];
  return {
    name: "troubled",
    node_num: 7,
    vehicle_num: 2,
    node_positions: xs.map((x) => [x, 0]),
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 30, 1, 1, 1, 1, 1],
    vehicles_capacity: [10, 10],
    node_time_windows: [[0, 200], [0, 1000], [0, 5], windowOfNode3, [0, 1000], [0, 1000], [0, 1000]],
    node_service_time: [0, 0, 0, 0, 30, 15, 0],
    vehicle_speeds: [1, 1],
    max_working_hours: 3,
    time_limit_seconds: 1,
  };
}

const EXPECTED: { kind: string; node?: number; evidence: Record<string, unknown> }[] = [
  { kind: "demand_exceeds_capacity", node: 1, evidence: { demand: 30, largest_capacity: 10, excess: 20 } },
  { kind: "total_demand_exceeds_capacity", evidence: { total_demand: 35, total_capacity: 20, excess: 15 } },
  // Straight from the depot (window opens at 0) node 2 is reached at 50; its window closed at 5.
  { kind: "window_unreachable", node: 2, evidence: { window_end: 5, earliest_arrival: 50, late_by: 45, vehicle: "Vehicle 0" } },
  // 90 there, 30 service, 90 back: 210, after the depot closes at 200; and longer than 3 h.
  {
    kind: "return_too_late",
    node: 4,
    evidence: { earliest_return: 210, end_node: 0, end_window_end: 200, late_by: 10, vehicle: "Vehicle 0" },
  },
  { kind: "working_hours_too_short", node: 4, evidence: { round_trip_minutes: 210, cap_minutes: 180, vehicle: "Vehicle 0" } },
  // 85 + 15 + 85 = 185 > 180 (but back by 185, before the depot closes).
  { kind: "working_hours_too_short", node: 5, evidence: { round_trip_minutes: 185, cap_minutes: 180, vehicle: "Vehicle 0" } },
];

function withoutMessages(list: Report["infeasibilities"]) {
  return list.map(({ message: _message, ...rest }) => rest);
}

/** POST /api/v1/solve/validate. */
describe("validate before you pay (POST /api/v1/solve/validate)", function () {
  this.timeout(120_000);
  let stack: Stack;

  before(async () => {
    stack = await startStack({ workers: 1, env: { PLANS_FILE } });
  });
  after(async () => {
    await stack?.stop();
  });

  it("accepts a good request without creating a task or using quota, and states the capped time limit", async () => {
    const { headers } = await stack.account("val-good", "tight");
    const client = apiClient(stack.api.url, headers);
    const { status, report } = await validate(client, {
      ...cvrpRequest({ customers: 8, vehicles: 2, capacity: 40 }),
      time_limit_seconds: 30,
    });
    expect(status).to.equal(200);
    expect(report).to.deep.equal({
      would_be_accepted: true,
      rejection: null,
      time_limit_seconds: 2,
      warnings: [],
      infeasible: false,
      infeasibilities: [],
    });
    const history = await client.GET("/api/v1/history", {});
    expect(history.data!.result.items).to.deep.equal([]);
    const usage = await usageOf(stack, "val-good");
    expect(usage.month).to.equal(0);
    expect(usage.minute).to.equal(1);
  });

  it("proves every infeasibility with its evidence, and a window that closes before it opens makes the request invalid", async () => {
    const { headers } = await stack.account("val-bad", "tight");
    const client = apiClient(stack.api.url, headers);
    const inverted = await validate(client, troubledRequest([100, 50]));
    expect(inverted.status).to.equal(200);
    expect(inverted.report.would_be_accepted).to.equal(false);
    expect(inverted.report.rejection).to.include({ status: 422, code: "validation_failed", error: "Validation failed" });
    expect(inverted.report.time_limit_seconds).to.equal(null);
    expect(inverted.report.infeasible).to.equal(true);
    const invertedExpected = [...EXPECTED];
    invertedExpected.splice(2, 0, { kind: "window_inverted", node: 3, evidence: { window_start: 100, window_end: 50 } });
    expect(withoutMessages(inverted.report.infeasibilities)).to.deep.equal(invertedExpected);
    // What submit answers for it is exactly the rejection validate reported.
    const submitted = await client.POST("/api/v1/solve", { body: troubledRequest([100, 50]) as never });
    expect(submitted.response.status).to.equal(422);
    expect((submitted.error as unknown as { detail: unknown }).detail).to.deep.equal(inverted.report.rejection!.detail);

    const { report } = await validate(client, troubledRequest([0, 1000]));
    expect(report.would_be_accepted).to.equal(true);
    expect(report.infeasible).to.equal(true);
    expect(withoutMessages(report.infeasibilities)).to.deep.equal(EXPECTED);
    expect(report.infeasibilities[0]!.message).to.equal("node 1 demand 30 exceeds the largest vehicle capacity 10 by 20");
    expect(report.infeasibilities[2]!.message).to.match(
      /earliest arrival, straight from a start node, is 50, 45 min after the window closes/,
    );
  });

  it("gives a failed task the same diagnostics as validate", async () => {
    const { headers } = await stack.account("val-same", "tight");
    const client = apiClient(stack.api.url, headers);
    const request = troubledRequest([0, 1000]);
    const { report } = await validate(client, request);
    const { data } = await client.POST("/api/v1/solve", { body: request as never });
    const failed = (await pollUntil(client, data!.request_id, isFinished)) as Awaited<ReturnType<typeof pollUntil>> & {
      infeasibilities?: unknown;
    };
    expect(failed.success).to.equal(false);
    expect(failed.code).to.equal("no_feasible_solution");
    expect(failed.infeasibilities).to.deep.equal(report.infeasibilities);
    expect(failed.diagnostics).to.deep.equal(report.infeasibilities.map((i) => i.message));
  });

  it("reports the warnings a solve would give, plan limits and an exhausted quota as the submit's answers", async () => {
    const { headers } = await stack.account("val-limits", "quota");
    const client = apiClient(stack.api.url, headers);
    const partial = { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 40 }), node_service_time: [0, 1, 1, 1, 1, 1] };
    const warned = await validate(client, partial);
    expect(warned.report.would_be_accepted).to.equal(true);
    expect(warned.report.warnings).to.have.length(1);
    expect(warned.report.warnings[0]).to.match(/must all be given to enable the time dimension/);

    const big = await validate(client, cvrpRequest({ customers: 120, vehicles: 2, capacity: 1000 }));
    expect(big.report.rejection).to.deep.equal({
      status: 400,
      code: "plan_limit_exceeded",
      error: "Node count (121) exceeds plan limit (100). Please upgrade your plan",
    });
    expect(big.report.infeasibilities).to.deep.equal([]);

    // Plan `quota` allows 3 tasks a month; validating never uses one.
    for (let i = 0; i < 3; i++)
      expect((await client.POST("/api/v1/solve", { body: { ...partial, name: `t${i}` } as never })).response.status).to.equal(200);
    const exhausted = await validate(client, partial);
    expect(exhausted.report.would_be_accepted).to.equal(false);
    expect(exhausted.report.rejection).to.include({ status: 429, code: "monthly_quota_exceeded" });
    expect((await usageOf(stack, "val-limits")).month).to.equal(3);
  });

  it("refuses the caller as submit does: 401 without credentials, 403 without API access", async () => {
    const anonymous = await validate(apiClient(stack.api.url), cvrpRequest({ customers: 3, vehicles: 1, capacity: 40 }));
    expect(anonymous.status).to.equal(401);
    const { headers } = await stack.account("val-free", "free");
    const free = await validate(apiClient(stack.api.url, headers), cvrpRequest({ customers: 3, vehicles: 1, capacity: 40 }));
    expect(free.status).to.equal(403);
    expect((free.body as { code: string }).code).to.equal("api_access_not_in_plan");
  });
});
