import { expect } from "chai";
import { checkTravelResult, type TravelRequest, type TravelResult } from "../../checker/check-travel.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { expectMatchesSchema } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

type Request = TravelRequest & Record<string, unknown>;

/**
 * Twelve customers on a 3 x 4 grid around depot 0; distances Euclidean (node_positions); travel
 * minutes from a duration matrix that is not proportional to them (a slow avenue on the y axis);
 * service 5 minutes; windows wide enough for any order. Large enough that the search (hgs), not
 * the exhaustive strategy, solves it.
 */
function grid(extra: Partial<Request> = {}): Request {
  const pos = [[0, 0], ...Array.from({ length: 12 }, (_, k) => [10 * (k % 4) + 5, 10 * Math.floor(k / 4) - 10])];
  const n = pos.length;
  const minutes = pos.map((a) => pos.map((b) => Math.round(Math.abs(a[0]! - b[0]!) + 3 * Math.abs(a[1]! - b[1]!))));
  return {
    node_num: n,
    vehicle_num: 3,
    node_positions: pos,
    distance_matrix: [],
    start_nodes: [0, 0, 0],
    end_nodes: [0, 0, 0],
    node_demands: pos.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: [6, 6, 6],
    node_time_windows: pos.map(() => [0, 2000]),
    node_service_time: pos.map((_, i) => (i === 0 ? 0 : 5)),
    duration_matrix: minutes,
    time_limit_seconds: 2,
    seed: 1,
    max_iterations: 300,
    ...extra,
  };
}

const cost = { objective: "min_total_cost", vehicle_fixed_costs: [20, 20, 20], vehicle_unit_distance_costs: [1, 1, 1] };

/** End to end on the real stack (nats-server, API, worker): the travel fields a search honours, refused ones, and the pre-check. */
describe("travel times, profiles, time costs, open routes and breaks (end to end)", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 1 });
    const account = await stack.account("travel-36", "pro");
    client = apiClient(stack.api.url, account.headers);
  });
  after(async () => {
    await stack?.stop();
  });

  async function solved(body: Request): Promise<TravelResult & { strategy: string }> {
    const { data, response } = await client.POST("/api/v1/solve", { body: body as never });
    expect(response.status, JSON.stringify(data)).to.equal(200);
    const polled = await pollUntil(client, data!.request_id, isFinished, 60_000);
    expect(polled.success, polled.error ?? "").to.equal(true);
    await expectMatchesSchema("#/components/schemas/SolvedResult", polled.result);
    const result = polled.result as TravelResult & { strategy: string };
    checkTravelResult(body, result);
    return result;
  }

  const cases: [string, Partial<Request>][] = [
    ["a duration matrix", {}],
    [
      "profiles",
      {
        profiles: { bike: { duration_matrix: grid().duration_matrix!.map((r) => r.map((x) => 2 * x)) } },
        vehicle_profiles: ["bike", null, null],
      },
    ],
    ["time costs", { ...cost, vehicle_unit_time_costs: [60, 30, 90] }],
    ["open routes", { vehicle_return_to_end: [false, false, true] }],
  ];
  for (const [name, extra] of cases) {
    it(`solves with ${name} through hgs, every field checked from the answer`, async () => {
      const result = await solved(grid(extra));
      expect(result.strategy).to.equal("hgs");
      if (name === "open routes")
        for (const [label, route] of Object.entries(result.routes))
          if (label !== "Vehicle 2") expect(route[route.length - 1], `${label} ends at its last customer`).to.not.equal(0);
      if (name === "time costs")
        for (const detail of Object.values(result.route_details!)) expect(detail.time_cost).to.be.a("number").and.greaterThan(0);
    });
  }

  it("solves all four together", async () => {
    const profiles = { bike: { duration_matrix: grid().duration_matrix!.map((r) => r.map((x) => 2 * x)) } };
    const result = await solved(
      grid({
        ...cost,
        profiles,
        vehicle_profiles: [null, "bike", null],
        vehicle_unit_time_costs: [60, 10, 60],
        vehicle_return_to_end: [true, false, false],
      }),
    );
    expect(result.strategy).to.equal("hgs");
  });

  it("solves several windows and breaks through hgs", async () => {
    const sets = grid().node_time_windows!.map((_, i) =>
      i % 3 === 1
        ? [
            [0, 40],
            [200, 2000],
          ]
        : null,
    );
    const breaks = [
      [{ earliest_start: 60, latest_start: 120, duration: 30 }],
      null,
      [{ earliest_start: 0, latest_start: 300, duration: 45 }],
    ];
    const result = await solved(grid({ node_time_window_sets: sets, vehicle_breaks: breaks }));
    expect(result.strategy).to.equal("hgs");
    for (const label of Object.keys(result.routes)) if (label !== "Vehicle 1") expect(result.breaks![label], label).to.have.length(1);
  });

  it("solves a profile's own distances with the search (hgs), and pinned to exact on a tiny problem", async () => {
    // The bike's roads: every leg 7, far from the vans' Euclidean distances.
    const bike = (n: number) => ({
      bike: { distance_matrix: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 0 : 7))) },
    });
    const body = grid({ profiles: bike(13), vehicle_profiles: ["bike", null, null] });
    const searched = await solved(body);
    expect(searched.strategy).to.equal("hgs");
    // checkTravelResult (in solved) measures each route on its vehicle's own distances.
    const onBike = searched.routes["Vehicle 0"];
    if (onBike) expect(searched.distances[0]).to.equal(7 * (onBike.length - 1));
    const keep = 5;
    const tiny = grid({ strategy: "exact", vehicle_num: 2, start_nodes: [0, 0], end_nodes: [0, 0], vehicles_capacity: [6, 6] });
    tiny.node_num = keep;
    tiny.node_positions = tiny.node_positions!.slice(0, keep);
    tiny.duration_matrix = tiny.duration_matrix!.slice(0, keep).map((r) => r.slice(0, keep));
    for (const f of ["node_demands", "node_time_windows", "node_service_time"] as const)
      (tiny[f] as unknown[]) = (tiny[f] as unknown[]).slice(0, keep);
    Object.assign(tiny, { profiles: bike(keep), vehicle_profiles: ["bike", null] });
    const result = await solved(tiny);
    expect(result.strategy).to.equal("exact");
  });

  it("pre-checks a node that no vehicle reaches in time on its profile", async () => {
    const body = grid({ node_time_windows: grid().node_time_windows!.map((w, i) => (i === 12 ? [0, 100] : w)) });
    const slow = { profiles: { truck: { duration_matrix: body.duration_matrix!.map((r) => r.map((x) => 3 * x)) } } };
    const { data } = await client.POST("/api/v1/solve/validate", {
      body: { ...body, ...slow, vehicle_profiles: ["truck", "truck", "truck"] } as never,
    });
    const report = (data as unknown as { result: { infeasibilities: { kind: string; node: number }[] } }).result;
    expect(report.infeasibilities.map((i) => [i.kind, i.node])).to.deep.equal([["window_unreachable", 12]]);
    const { data: fine } = await client.POST("/api/v1/solve/validate", {
      body: { ...body, ...slow, vehicle_profiles: ["truck", null, "truck"] } as never,
    });
    expect((fine as unknown as { result: { infeasibilities: unknown[] } }).result.infeasibilities).to.deep.equal([]);
  });
});
