import { expect } from "chai";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { checkDistanceResult } from "../../checker/check-result.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { startStack, type Stack } from "../helpers/stack.js";

/**
 * A van of capacity 3 and eight parcels of 1 around the depot at (0, 0), in two clusters; goods
 * for the east cluster (nodes 5..8) reach the depot at minute 120. Windows are wide, service 5.
 */
function depotDay(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const xy = [
    [0, 0],
    [-20, 5],
    [-22, -5],
    [-30, 0],
    [-25, 8],
    [20, 5],
    [22, -5],
    [30, 0],
    [25, 8],
  ];
  return {
    node_num: 9,
    vehicle_num: 2,
    node_positions: xy,
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 0],
    node_demands: xy.map((_, i) => (i === 0 ? 0 : 1)),
    vehicles_capacity: [3, 3],
    node_time_windows: xy.map(() => [0, 600]),
    node_service_time: xy.map((_, i) => (i === 0 ? 0 : 5)),
    vehicle_speeds: [1, 1],
    vehicle_reload_nodes: [[0], [0]],
    vehicle_max_reloads: [3, 0],
    node_release_times: xy.map((_, i) => (i >= 5 ? 120 : 0)),
    time_limit_seconds: 2,
    seed: 1,
    ...extra,
  };
}

const minutes = (hms: string) => {
  const [h, m, s] = hms.split(":").map(Number) as [number, number, number];
  return h * 60 + m + s / 60 - 9 * 60;
};

const sharedChecker = fileURLToPath(new URL("../../../shared/peers/check-result.mjs", import.meta.url));

/** End to end on the real stack (nats-server, API, worker): several trips a day with release times. */
describe("several trips a day with release times (end to end)", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 1 });
    const account = await stack.account("trips-1", "pro");
    client = apiClient(stack.api.url, account.headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("plans reload stops with loads back at 0 and trips that leave once their goods are released", async () => {
    const request = depotDay();
    const { data, response } = await client.POST("/api/v1/solve", { body: request as never });
    expect(response.status, JSON.stringify(data)).to.equal(200);
    const polled = (await pollUntil(client, data!.request_id, isFinished, 60_000)) as {
      success: boolean;
      error: string | null;
      result: Record<string, unknown>;
    };
    expect(polled.success, polled.error ?? "").to.equal(true);
    const result = polled.result as {
      routes: Record<string, number[]>;
      loads: Record<string, number[]>;
      time_windows: Record<string, string[][]>;
      route_details: Record<string, { reloads?: number; trips?: { from_node: number; load: number; departure_minutes: number | null }[] }>;
    };
    checkDistanceResult(request as never, result as never);
    // Eight parcels, a fleet carrying 3 + 3 per trip and vehicle 1 never reloading: vehicle 0 reloads.
    const route = result.routes["Vehicle 0"]!;
    const stops = route.map((c, i) => (c === 0 && i > 0 && i < route.length - 1 ? i : -1)).filter((i) => i > 0);
    expect(stops.length).to.be.at.least(1);
    for (const i of stops) expect(result.loads["Vehicle 0"]![i]).to.equal(0);
    const detail = result.route_details["Vehicle 0"]!;
    expect(detail.reloads).to.equal(stops.length);
    expect(detail.trips!.every((t) => t.load <= 3)).to.equal(true);
    // Every trip that carries an east parcel leaves its depot at minute 120 or later.
    const all = Object.entries(result.routes);
    for (const [label, r] of all) {
      let from = 0;
      for (let i = 1; i < r.length; i++) {
        if (r[i] !== 0) continue;
        if (r.slice(from + 1, i).some((c) => c >= 5)) expect(minutes(result.time_windows[label]![from]![1]!)).to.be.at.least(120 - 1 / 60);
        from = i;
      }
    }
    if (existsSync(sharedChecker)) {
      const { checkResult } = (await import(pathToFileURL(sharedChecker).href)) as {
        checkResult: (req: unknown, res: unknown) => { ok: boolean; violations: string[] };
      };
      expect(checkResult(request, result).violations).to.deep.equal([]);
    }
  });

  it("answers a customer as reload node and release times without the time dimension with 422s naming field and index", async () => {
    const request = depotDay({ vehicle_reload_nodes: [[0, 3], null], node_time_windows: undefined });
    const { error, response } = await client.POST("/api/v1/solve", { body: request as never });
    expect(response.status).to.equal(422);
    const detail = (error as unknown as { detail: { loc: string[]; msg: string }[] }).detail;
    expect(detail.map((d) => [d.loc.join("."), d.msg])).to.deep.equal([
      [
        "body.vehicle_reload_nodes.0.1",
        "vehicle 0's reload node 3 is a customer: a reload node must be a depot (some vehicle's start or end node)",
      ],
      [
        "body.node_release_times",
        "node_release_times needs the time dimension: give node_time_windows, node_service_time and vehicle_speeds",
      ],
    ]);
  });

  it("reports in validate a customer released too late to be served in its window", async () => {
    const windows = depotDay().node_time_windows as number[][];
    const request = depotDay({ node_time_windows: windows.map((w, i) => (i === 7 ? [0, 140] : w)) });
    const { data, response } = await client.POST("/api/v1/solve/validate", { body: request as never });
    expect(response.status).to.equal(200);
    const report = data!.result as {
      infeasible: boolean;
      infeasibilities: { kind: string; node?: number; evidence: Record<string, unknown> }[];
    };
    expect(report.infeasible).to.equal(true);
    expect(report.infeasibilities.map((i) => [i.kind, i.node, i.evidence.release_time])).to.deep.equal([["window_unreachable", 7, 120]]);
  });
});
