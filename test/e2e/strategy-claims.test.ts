import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Body = Record<string, unknown>;
type Issue = { loc: string[]; msg: string; type: string };

/** A strategy module that claims only the base features: one route per vehicle, in node order. */
const PLAIN_MODULE = `
export default {
  name: "plain",
  kind: "construction",
  features: ["capacities", "distance_matrix", "time_windows"],
  supports: () => ({ ok: true }),
  solve: (p) => ({ routes: Array.from({ length: p.vehicleCount }, (_, v) => (v === 0 ? [...p.customers] : [])) }),
};
`;

/** Depot 0 and four customers on a line, with a ride-time limit, an incompatible pair and a group. */
function visitRulesRequest(): Body {
  const xs = [0, 10, 20, 30, 40];
  return {
    node_num: 5,
    vehicle_num: 2,
    distance_matrix: xs.map((a) => xs.map((b) => Math.abs(a - b))),
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: [0, 1, 1, 0, 0],
    vehicles_capacity: [4, 4],
    node_time_windows: Array.from({ length: 5 }, () => [0, 1000]),
    node_service_time: [0, 5, 5, 5, 5],
    vehicle_speeds: [1, 1],
    shipments: [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 30 }],
    node_load_types: [null, "food", "bleach", "food", null],
    incompatible_load_types: [["food", "bleach"]],
    same_vehicle_groups: [[1, 3, 4]],
    time_limit_seconds: 1,
  };
}

const tail = (strategy: string) =>
  `is not supported yet: the pinned strategy '${strategy}' does not honour it; send the request without it or without the strategy`;

/**
 * The six fields of the dispatchers' objectives and visit rules against the strategies' claims,
 * through the real service with a strategy module loaded beside the built-in ones: each is listed
 * under the strategies that claim it, and refused with a 422 naming the field when pinned to one
 * that does not. Every response is checked against the document.
 */
describe("objective and visit-rule features through the API (GET /api/v1/strategies, unsupported_feature)", function () {
  this.timeout(90_000);
  let stack: Stack;
  let client: ApiClient;
  let moduleDir: string;

  before(async () => {
    moduleDir = mkdtempSync(join(tmpdir(), "vrp-plain-strategy-"));
    writeFileSync(join(moduleDir, "plain.mjs"), PLAIN_MODULE);
    stack = await startStack({ workers: 1, env: { STRATEGY_MODULES: join(moduleDir, "plain.mjs") } });
    client = apiClient(stack.baseUrl, (await stack.account("researcher")).headers);
  });
  after(async () => {
    await stack?.stop();
    if (moduleDir) rmSync(moduleDir, { recursive: true, force: true });
  });

  const submit = async (body: Body) => {
    const { data, error, response } = await client.POST("/api/v1/solve", { body: body as never });
    return { data, status: response.status, detail: (error as unknown as { detail?: Issue[] } | undefined)?.detail };
  };

  it("lists each of the six fields' features under the strategies that claim it", async () => {
    const { data, response } = await client.GET("/api/v1/strategies");
    expect(response.status).to.equal(200);
    const claims = (feature: string) => data!.result.filter((s) => (s.supports as string[]).includes(feature)).map((s) => s.name);
    expect(data!.result.map((s) => s.name)).to.include("plain");
    // The service's fewest-vehicles phases run around every built-in strategy's plans.
    expect(claims("min_vehicles")).to.deep.equal(["clarke-wright", "sweep", "alns", "hgs", "large", "exact"]);
    for (const feature of ["balance", "traffic", "ride_times", "load_types", "same_vehicle_groups"]) {
      expect(claims(feature), feature).to.deep.equal(["hgs", "exact"]);
    }
  });

  it("refuses each visit rule pinned to a strategy that does not claim it, naming the field", async () => {
    const refused = await submit({ ...visitRulesRequest(), strategy: "clarke-wright" });
    expect(refused.status).to.equal(422);
    expect(refused.detail).to.deep.equal([
      {
        loc: ["body", "shipments", "0", "max_ride_minutes"],
        msg: `max_ride_minutes (feature 'ride_times') ${tail("clarke-wright")}`,
        type: "unsupported_feature",
      },
      {
        loc: ["body", "incompatible_load_types"],
        msg: `incompatible_load_types (feature 'load_types') ${tail("clarke-wright")}`,
        type: "unsupported_feature",
      },
      {
        loc: ["body", "same_vehicle_groups"],
        msg: `same_vehicle_groups (feature 'same_vehicle_groups') ${tail("clarke-wright")}`,
        type: "unsupported_feature",
      },
    ]);
  });

  it("solves the same visit rules pinned to hgs, which claims them, and without a pin", async () => {
    for (const pin of [{ strategy: "hgs" }, {}]) {
      const accepted = await submit({ ...visitRulesRequest(), ...pin });
      expect(accepted.status, JSON.stringify(pin)).to.equal(200);
      const solved = await pollUntil(client, accepted.data!.request_id, isFinished);
      expect(solved.success, JSON.stringify(solved.error)).to.equal(true);
      // Unpinned, the automatic choice takes a strategy that claims them (exact, for four customers).
      expect((solved.result as Body).strategy).to.be.oneOf(["hgs", "exact"]);
      if ("strategy" in pin) expect((solved.result as Body).strategy).to.equal("hgs");
    }
  });

  it("refuses min_vehicles, balance and traffic pinned to a module that claims none of them", async () => {
    const plain = visitRulesRequest();
    for (const field of ["shipments", "node_load_types", "incompatible_load_types", "same_vehicle_groups"]) delete plain[field];
    const body = {
      ...plain,
      objective: "min_vehicles",
      balance: { measure: "stops", cost_per_unit: 10 },
      time_dependent_durations: [
        { start: 0, factor: 1 },
        { start: 60, factor: 1.5 },
      ],
    };
    const refused = await submit({ ...body, strategy: "plain" });
    expect(refused.status).to.equal(422);
    expect(refused.detail).to.deep.equal([
      { loc: ["body", "balance"], msg: `balance (feature 'balance') ${tail("plain")}`, type: "unsupported_feature" },
      {
        loc: ["body", "objective"],
        msg: `objective "min_vehicles" (feature 'min_vehicles') ${tail("plain")}`,
        type: "unsupported_feature",
      },
    ]);
    // Without the rule fields, the travel field left is refused in its own words.
    const traffic = await submit({ ...plain, time_dependent_durations: body.time_dependent_durations, strategy: "plain" });
    expect(traffic.detail?.map((d) => d.loc.join("."))).to.deep.equal(["body.time_dependent_durations"]);
    // A built-in construction that claims min_vehicles takes it.
    const sweep = await client.POST("/api/v1/solve/validate", {
      body: { ...plain, objective: "min_vehicles", strategy: "clarke-wright" } as never,
    });
    expect(sweep.response.status).to.equal(200);
  });
});
