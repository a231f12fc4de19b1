import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PollSolved, SolvedResult } from "../../clients/typescript/src/index.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { loadRequest, type LoadKind } from "../helpers/load-requests.js";
import { sdkClient, TEST_WAIT } from "../helpers/sdk.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { apiClient } from "../helpers/client.js";

/**
 * Pickups, backhauls, shipments and extra dimensions end to end on the real stack: each capability of constraints.md's second table is
 * submitted through the SDK (typed by the document), solved by a worker, polled, delivered by
 * callback (the same body), and checked by the tests' independent checker (check-loads.ts):
 * capacity on board, backhaul order, shipment pairs, extra dimensions, and the result fields.
 */
describe("pickups, backhauls, shipments and extra dimensions end to end", function () {
  this.timeout(180_000);
  let stack: Stack;
  let receiver: Server;
  let receiverUrl: string;
  const callbacks = new Map<string, string>();

  before(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        callbacks.set((JSON.parse(body) as { request_id: string }).request_id, body);
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    stack = await startStack({ workers: 1 });
  });
  after(async () => {
    await stack?.stop();
    receiver?.close();
  });

  async function waitForCallback(id: string): Promise<string> {
    const deadline = Date.now() + 20_000;
    while (!callbacks.has(id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return callbacks.get(id) ?? "";
  }

  for (const kind of ["pickups", "backhauls", "shipments", "dimensions", "all"] as LoadKind[]) {
    it(`solves a request with ${kind === "all" ? "all of them" : kind}: poll and callback agree, every load rule holds`, async () => {
      const client = sdkClient(stack.baseUrl, await stack.account(`loads-${kind}`, "pro"));
      const request = { ...loadRequest(kind), callback_url: `${receiverUrl}/${kind}` };
      const { request_id } = await client.submit(request);
      const done = await client.waitForResult(request_id, TEST_WAIT);
      if (!done.success) throw new Error(`${kind}: ${done.error}`);
      const result: SolvedResult = (done as PollSolved).result;
      checkDistanceResult(request as Parameters<typeof checkDistanceResult>[0], result);
      expect(result.loads_on_board, "loads_on_board").to.be.an("object");
      if (kind === "dimensions" || kind === "all") expect(result.extra_loads_on_board).to.be.an("object");
      else expect(result).not.to.have.property("extra_loads_on_board");
      expect(JSON.parse(await waitForCallback(request_id)), "the callback carries the poll body").to.deep.equal(done);
    });
  }

  it("refuses a bad load field on submit with the exact 422 (a shipment naming a depot)", async () => {
    const account = await stack.account("loads-422", "pro");
    const bad = { ...loadRequest("shipments"), shipments: [{ pickup: 0, delivery: 4, amount: 1 }] };
    const { data, error, response } = await apiClient(stack.baseUrl, account.headers).POST("/api/v1/solve", { body: bad });
    expect(response.status, JSON.stringify(data ?? error)).to.equal(422);
    expect((error as { detail: unknown[] }).detail).to.deep.equal([
      {
        loc: ["body", "shipments", "0", "pickup"],
        msg: "shipment 0: node 0 is a depot (a start or end node); a shipment's pickup and delivery are customers",
        type: "value_error",
      },
    ]);
  });

  it("validate's pre-check names a pickup larger than every vehicle and an extra-dimension demand above every vehicle's", async () => {
    const account = await stack.account("loads-validate-2", "pro");
    const request = loadRequest("all");
    const pickups = request.node_pickups!.slice();
    pickups[8] = 31;
    const extra = request.node_extra_demands!.map((row) => row.slice());
    extra[9] = [26, 1];
    const { data, response } = await apiClient(stack.baseUrl, account.headers).POST("/api/v1/solve/validate", {
      body: { ...request, node_pickups: pickups, node_extra_demands: extra },
    });
    expect(response.status).to.equal(200);
    expect(data!.result.would_be_accepted).to.equal(true);
    expect(data!.result.infeasibilities.map(({ kind, node, evidence }) => ({ kind, node, evidence }))).to.deep.equal([
      { kind: "pickup_exceeds_capacity", node: 8, evidence: { pickup: 31, largest_capacity: 30, excess: 1 } },
      { kind: "extra_demand_exceeds_capacity", node: 9, evidence: { dimension: 1, demand: 26, largest_capacity: 25, excess: 1 } },
    ]);
  });

  it("validate's pre-check names a shipment heavier than every vehicle and a pair whose windows cannot be met in order", async () => {
    const account = await stack.account("loads-validate", "pro");
    const request = loadRequest("shipments");
    const n = request.node_num;
    const d = request.distance_matrix;
    // Node 5 (shipment 1's delivery) can be reached straight from the depot, just not through node 2 first.
    const windowEnd = d[0]![5]!;
    expect(d[0]![2]! + d[2]![5]!, "the detour is longer").to.be.greaterThan(windowEnd);
    const heavy = {
      ...request,
      shipments: [{ pickup: 1, delivery: 4, amount: 31 }, ...request.shipments!.slice(1)],
      node_time_windows: Array.from({ length: n }, (_, i): [number, number] => (i === 5 ? [0, windowEnd] : [0, 10_000])),
      node_service_time: Array<number>(n).fill(0),
      vehicle_speeds: [1, 1, 1, 1, 1],
    };
    const { data, response } = await apiClient(stack.baseUrl, account.headers).POST("/api/v1/solve/validate", { body: heavy });
    expect(response.status).to.equal(200);
    const found = data!.result.infeasibilities.map((i) => ({ kind: i.kind, node: i.node }));
    expect(found).to.deep.equal([
      { kind: "shipment_exceeds_capacity", node: 1 },
      { kind: "shipment_windows_incompatible", node: 5 },
    ]);
    expect(data!.result.infeasibilities[1]!.evidence).to.deep.equal({
      shipment: 1,
      pickup_node: 2,
      delivery_node: 5,
      pickup_finish: d[0]![2]!,
      travel_minutes: d[2]![5]!,
      earliest_delivery_arrival: d[0]![2]! + d[2]![5]!,
      window_end: windowEnd,
      late_by: d[0]![2]! + d[2]![5]! - windowEnd,
      vehicle: "Vehicle 0",
    });
  });
});
