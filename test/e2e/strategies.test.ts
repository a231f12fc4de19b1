import { expect } from "chai";
import { STRATEGY_FEATURES } from "../../strategies/core/strategy.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Body = Record<string, unknown>;

/**
 * The strategy registry through the real service: the listing, a pinned name checked against it,
 * and a pinned strategy that declines the problem. Every response is checked against the document.
 */
describe("strategies through the API (GET /api/v1/strategies, pinned names, strategy_declined)", function () {
  this.timeout(90_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 1 });
    client = apiClient(stack.baseUrl, (await stack.account("researcher")).headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("lists the built-in strategies with their kind and the features each takes, to authenticated callers only", async () => {
    const anonymous = await apiClient(stack.baseUrl).GET("/api/v1/strategies");
    expect(anonymous.response.status).to.equal(401);
    const { data, response } = await client.GET("/api/v1/strategies");
    expect(response.status).to.equal(200);
    const list = data!.result;
    expect(list.map((s) => s.name)).to.deep.equal(["clarke-wright", "sweep", "alns", "hgs", "large", "exact"]);
    const byName = Object.fromEntries(list.map((s) => [s.name, s]));
    expect(byName["hgs"]).to.deep.equal({ name: "hgs", kind: "search", supports: [...STRATEGY_FEATURES] });
    // Every feature but reload stops and release times, which its enumeration does not place.
    expect(byName["exact"]!.supports).to.deep.equal(STRATEGY_FEATURES.filter((f) => f !== "reloads" && f !== "release_times"));
    expect(byName["sweep"]!.kind).to.equal("construction");
    expect(byName["sweep"]!.supports).to.include("capacities").and.not.include("distance_matrix");
  });

  it("refuses an unknown strategy name with a 422 that lists the available names", async () => {
    const request = { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 30 }), strategy: "nearest-neighbour" };
    const { error, response } = await client.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(422);
    const envelope = error as unknown as Body & { detail: { loc: string[]; msg: string; type: string }[] };
    expect(envelope.code).to.equal("validation_failed");
    expect(envelope.detail).to.have.length(1);
    expect(envelope.detail[0]!.loc).to.deep.equal(["body", "strategy"]);
    expect(envelope.detail[0]!.msg).to.equal(
      "unknown strategy 'nearest-neighbour'; available: clarke-wright, sweep, alns, hgs, large, exact",
    );
  });

  it("refuses a name that is not kebab-case by the document's pattern", async () => {
    const request = { ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 30 }), strategy: "Nearest Neighbour" };
    const { error, response } = await client.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(422);
    expect((error as unknown as { detail: { loc: string[] }[] }).detail.map((d) => d.loc.join("."))).to.deep.equal(["body.strategy"]);
  });

  it("fails a task pinned to a strategy that declines the problem with strategy_declined and the strategy's reason", async () => {
    // A distance matrix without node_positions: sweep needs coordinates.
    const request = { ...cvrpRequest({ customers: 6, vehicles: 2, capacity: 40 }), strategy: "sweep", time_limit_seconds: 2 };
    const { data, response } = await client.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(200);
    const failed = await pollUntil(client, data!.request_id, isFinished);
    expect(failed).to.deep.include({ success: false, result: null, code: "strategy_declined" });
    expect(failed.error).to.equal("Strategy 'sweep' declined this request: the sweep strategy needs node_positions (coordinates)");
    expect(failed.diagnostics).to.deep.equal(["the sweep strategy needs node_positions (coordinates)"]);
  });

  it("solves a task pinned to a strategy that takes the problem", async () => {
    const request = {
      ...cvrpRequest({ customers: 6, vehicles: 2, capacity: 40, withPositions: true }),
      strategy: "sweep",
      time_limit_seconds: 2,
    };
    const { data } = await client.POST("/api/v1/solve", { body: request as never });
    const solved = await pollUntil(client, data!.request_id, isFinished);
    expect(solved.success).to.equal(true);
    expect((solved.result as Body).strategy).to.equal("sweep");
  });
});
