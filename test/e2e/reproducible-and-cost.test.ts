import { expect } from "chai";
import type { components } from "../../generated/api.js";
import { apiClient, isFinished, pollUntil, type ApiClient } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

type SolvedResult = components["schemas"]["SolvedResult"];
/** The document's solved result, with the extension fields these tests read always present. */
type Solved = SolvedResult &
  Required<
    Pick<SolvedResult, "strategy" | "seed" | "iterations" | "solver_version" | "lateness_penalty" | "lateness_minutes" | "route_details">
  >;

async function solve(client: ApiClient, body: object): Promise<{ id: string; result: Solved }> {
  const { data, response } = await client.POST("/api/v1/solve", { body: body as never });
  expect(response.status, JSON.stringify(data)).to.equal(200);
  const done = await pollUntil(client, data!.request_id, isFinished, 90_000);
  expect(done.success, JSON.stringify(done).slice(0, 300)).to.equal(true);
  return { id: data!.request_id, result: done.result as Solved };
}

/** Reproducible runs and the cost explained. */
describe("reproducible runs and cost explained", function () {
  this.timeout(180_000);
  let stack: Stack;
  let client: ApiClient;

  before(async () => {
    stack = await startStack({ workers: 1 });
    client = apiClient(stack.api.url, (await stack.account("repro")).headers);
  });
  after(async () => {
    await stack?.stop();
  });

  it("gives identical routes for the same request, seed and iteration budget on two different worker processes", async () => {
    const base = { ...cvrpRequest({ customers: 40, vehicles: 6, capacity: 50, seed: 21 }), time_limit_seconds: 60, max_iterations: 300 };
    const requests = [
      { ...base, seed: 4242 },
      { ...base, seed: 4242, strategy: "alns" },
    ];
    const first = [];
    for (const r of requests) first.push(await solve(client, r));
    // The first worker goes; a fresh process solves the same requests again.
    const firstWorker = stack.workers[0]!;
    firstWorker.signal("SIGTERM");
    await firstWorker.exited();
    const secondWorker = await stack.startWorker();
    const second = [];
    for (const r of requests) second.push(await solve(client, r));

    for (let i = 0; i < requests.length; i++) {
      const a = first[i]!;
      const b = second[i]!;
      expect(firstWorker.output()).to.include(a.id);
      expect(secondWorker.output()).to.include(b.id);
      expect(secondWorker.output()).to.not.include(a.id);
      expect(b.result.routes).to.deep.equal(a.result.routes);
      expect(b.result.total_cost).to.equal(a.result.total_cost);
      expect(b.result.seed).to.equal(4242);
      expect(a.result.seed).to.equal(4242);
      // The iteration budget, not the clock, ended both searches.
      expect(a.result.iterations).to.equal(300);
      expect(b.result.iterations).to.equal(300);
      expect(b.result.strategy).to.equal(a.result.strategy);
      expect(b.result.solver_version)
        .to.equal(a.result.solver_version)
        .and.to.match(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    }
    expect(first[1]!.result.strategy).to.equal("alns");

    // Without a seed one is picked and echoed; sending it back repeats the run.
    const unseeded = await solve(client, base);
    expect(unseeded.result.seed).to.be.a("number");
    const repeated = await solve(client, { ...base, seed: unseeded.result.seed });
    expect(repeated.result.routes).to.deep.equal(unseeded.result.routes);
    expect(repeated.result.seed).to.equal(unseeded.result.seed);
  });

  it("breaks an integer-valued cost down per vehicle into parts that add up to total_cost exactly", async () => {
    const request = {
      ...cvrpRequest({ customers: 14, vehicles: 4, capacity: 30, seed: 9 }),
      objective: "min_total_cost",
      vehicle_fixed_costs: [40, 55, 0, 25],
      vehicle_unit_distance_costs: [1, 2, 3, 1],
      time_limit_seconds: 2,
    };
    const { result } = await solve(client, request);
    expect(Object.keys(result.route_details)).to.deep.equal(Object.keys(result.routes));
    let sum = 0;
    Object.entries(result.route_details).forEach(([label, d], k) => {
      const v = Number(label.split(" ")[1]);
      expect(d.fixed_cost).to.equal(request.vehicle_fixed_costs[v]);
      expect(d.distance).to.equal(result.distances[k]);
      expect(d.distance_cost).to.equal(request.vehicle_unit_distance_costs[v]! * d.distance);
      expect(d.lateness_penalty).to.equal(0);
      expect(d.fixed_cost + d.distance_cost + d.lateness_penalty).to.equal(d.cost);
      expect(d.load).to.equal(result.loads[label]!.at(-1));
      expect(d.load).to.be.at.most(d.capacity);
      expect(d.capacity).to.equal(request.vehicles_capacity[v]);
      expect([d.driving_minutes, d.waiting_minutes, d.service_minutes, d.duration_minutes, d.max_duration_minutes]).to.deep.equal([
        null,
        null,
        null,
        null,
        null,
      ]);
      sum += d.cost;
    });
    expect(sum).to.equal(result.total_cost);
  });

  it("explains driving, waiting, service, each late stop's penalty and the working-hours cap under soft windows", async () => {
    const base = cvrpRequest({ customers: 8, vehicles: 2, capacity: 100, seed: 4, withPositions: true, matrix: false });
    const n = base.node_num;
    const request = {
      ...base,
      objective: "min_total_cost",
      vehicle_fixed_costs: [30, 30],
      vehicle_unit_distance_costs: [1.5, 1],
      // Tight windows far from the depot: some stops are late and pay 2 per minute.
      node_time_windows: Array.from({ length: n }, (_, i) => (i === 0 ? [0, 600] : i % 3 === 0 ? [90, 120] : [0, 20])),
      node_service_time: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 5)),
      vehicle_speeds: [1, 1.5],
      max_working_hours: 8,
      late_penalty_per_min: 2,
      time_limit_seconds: 2,
    };
    const { result } = await solve(client, request);
    let sum = 0;
    let latePenalty = 0;
    let lateStops = 0;
    for (const [label, d] of Object.entries(result.route_details)) {
      const close = (x: number, y: number, what: string) => expect(x, `${label} ${what}`).to.be.closeTo(y, 1e-6);
      close(d.fixed_cost + d.distance_cost + d.lateness_penalty, d.cost, "parts of the cost");
      close(d.driving_minutes! + d.waiting_minutes! + d.service_minutes!, d.duration_minutes!, "parts of the duration");
      expect(d.duration_minutes).to.be.at.most(d.max_duration_minutes!);
      expect(d.max_duration_minutes).to.equal(480);
      close(d.service_minutes!, 5 * (result.routes[label]!.length - 2), "service minutes");
      close(
        d.late_stops.reduce((s, x) => s + x.penalty, 0),
        d.lateness_penalty,
        "late stops' penalties",
      );
      close(
        d.late_stops.reduce((s, x) => s + x.lateness_minutes, 0),
        d.lateness_minutes!,
        "late stops' minutes",
      );
      for (const stop of d.late_stops) close(stop.penalty, stop.lateness_minutes * 2, `penalty of node ${stop.node}`);
      sum += d.cost;
      latePenalty += d.lateness_penalty;
      lateStops += d.late_stops.length;
    }
    expect(lateStops).to.be.greaterThan(0);
    expect(sum).to.be.closeTo(result.total_cost, 1e-9 * result.total_cost);
    expect(latePenalty).to.be.closeTo(result.lateness_penalty, 1e-9 * result.total_cost);
  });
});
