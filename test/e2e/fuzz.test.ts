import { expect } from "chai";
import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));
const base = (): Record<string, unknown> => ({ ...cvrpRequest({ customers: 4, vehicles: 2, capacity: 30 }), time_limit_seconds: 1 });
const FIELDS = Object.keys(base()).concat([
  "objective",
  "node_time_windows",
  "node_service_time",
  "vehicle_speeds",
  "max_working_hours",
  "late_penalty_per_min",
  "callback_url",
  "strategy",
  "base_start_time",
  "vehicle_fixed_costs",
]);

/** Values that have broken services before: wrong types, non-finite spellings, extremes, odd keys. */
const nasty = fc.oneof(
  fc.constantFrom("NaN", "Infinity", "-Infinity", "1e999", "", "null", "__proto__", "\u0000", "🚚".repeat(50), "x".repeat(100_000)),
  fc.constantFrom(1e308, -1e308, -1, 0, 0.5, Number.MAX_SAFE_INTEGER + 2, -0, 2 ** 31, 1e-320),
  fc.constantFrom(
    null,
    true,
    [],
    {},
    [[]],
    [[1, 2], [3]],
    [
      [0, "a"],
      [1, 0],
    ],
    { __proto__: { polluted: true } },
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.array(fc.double(), { maxLength: 6 }), { maxLength: 6 }),
  fc.integer({ min: 1, max: 6 }).map((d) => JSON.parse("[".repeat(d * 40) + "]".repeat(d * 40)) as unknown),
);

const mutation = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), field: fc.constantFrom(...FIELDS), value: nasty }),
  fc.record({ kind: fc.constant("delete" as const), field: fc.constantFrom(...FIELDS) }),
  fc.record({
    kind: fc.constant("extra" as const),
    field: fc.constantFrom("__proto__", "constructor", "prototype", "toString", "extra", "x".repeat(300)),
    value: nasty,
  }),
  fc.record({
    kind: fc.constant("element" as const),
    field: fc.constantFrom("node_demands", "start_nodes", "end_nodes", "vehicles_capacity", "distance_matrix"),
    index: fc.nat(6),
    value: nasty,
  }),
);

function mutate(mutations: { kind: string; field: string; value?: unknown; index?: number }[]): string {
  const body = base();
  for (const m of mutations) {
    if (m.kind === "set") body[m.field] = m.value;
    else if (m.kind === "delete") delete body[m.field];
    else if (m.kind === "element" && Array.isArray(body[m.field])) (body[m.field] as unknown[])[m.index!] = m.value;
  }
  let json = JSON.stringify(body);
  // Keys like __proto__ only survive as raw JSON text, which is exactly how an attacker sends them.
  for (const m of mutations)
    if (m.kind === "extra") json = json.replace(/^\{/, `{${JSON.stringify(m.field)}:${JSON.stringify(m.value ?? null)},`);
  return json;
}

describe("bad input never hurts the service (fuzz)", function () {
  this.timeout(300_000);
  let stack: Stack;
  let headers: Record<string, string>;
  const accepted: string[] = [];

  async function send(body: string, contentType = "application/json"): Promise<number> {
    const res = await fetch(`${stack.baseUrl}/api/v1/solve`, {
      method: "POST",
      headers: { ...headers, "content-type": contentType },
      body,
    });
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).to.be.oneOf([200, 400, 413, 415, 422]);
    const json = JSON.parse(text) as { request_id: string };
    await expectMatchesSpec("submitSolve", res.status, json);
    if (res.status === 200) accepted.push(json.request_id);
    return res.status;
  }

  before(async () => {
    stack = await startStack({
      workers: 1,
      env: { PLANS_FILE, MAX_BODY_BYTES: String(1024 * 1024), MARKETPLACE_PROXY_SECRET: "do-not-log-me" },
    });
    headers = (await stack.account("fuzzer", "fuzz")).headers;
  });
  after(async () => {
    await stack?.stop();
  });

  it("answers thousands of mutated requests with a 4xx envelope or an acceptance, never a 5xx", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
        const status = await send(mutate(mutations));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
      { numRuns: 2000, seed: 20261122 },
    );
    expect(statuses.get(422) ?? 0, JSON.stringify([...statuses])).to.be.greaterThan(1000);
  });

  it("answers malformed, truncated and mistyped bodies with 400/413/415", async () => {
    const valid = JSON.stringify(base());
    await fc.assert(
      fc.asyncProperty(
        fc.nat(valid.length - 1),
        fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "application/xml"),
        async (cut, type) => {
          const status = await send(valid.slice(0, cut), type);
          expect(status).to.be.oneOf(type === "application/json" ? [400, 422] : [415]);
        },
      ),
      { numRuns: 400, seed: 7 },
    );
    expect(await send("x".repeat(2 * 1024 * 1024))).to.equal(413);
    expect(await send("\uFEFF{}")).to.be.oneOf([400, 422]);
  });

  it("stays up, solves or cleanly fails every accepted request, and never logs secrets", async () => {
    const health = await fetch(`${stack.baseUrl}/healthz`);
    expect(health.status).to.equal(200);
    await expectMatchesSpec("getHealth", 200, await health.json());
    const client = apiClient(stack.baseUrl, headers);
    // Besides whatever the mutations let through: one request that solves, one that cannot.
    const infeasible = { ...base(), node_demands: [0, 99, 1, 1, 1] };
    for (const body of [base(), infeasible]) expect(await send(JSON.stringify(body))).to.equal(200);
    const outcomes = new Map<boolean, number>();
    for (const id of accepted) {
      const done = await pollUntil(client, id, isFinished, 60_000);
      outcomes.set(done.success, (outcomes.get(done.success) ?? 0) + 1);
      if (!done.success) expect(done.error, id).to.be.a("string").and.not.equal("");
    }
    expect(outcomes.get(true) ?? 0).to.be.greaterThan(0);
    expect(outcomes.get(false) ?? 0).to.be.greaterThan(0);
    expect(stack.workers[0]!.child.exitCode).to.equal(null);
    const wrongSecret = await fetch(`${stack.baseUrl}/api/v1/solve`, {
      method: "POST",
      headers: { "X-Marketplace-Proxy-Secret": "do-not-log-me-wrong", "X-Marketplace-User": "u" },
    });
    expect(wrongSecret.status).to.equal(401);
    await expectMatchesSpec("submitSolve", 401, await wrongSecret.json());
    const logs = stack.api.output() + stack.workers.map((w) => w.output()).join("");
    expect(logs).to.not.include(headers["X-Api-Key"]!);
    expect(logs).to.not.include("do-not-log-me");
    expect(logs).to.include('"request_id"');
    // Structured logs: every line is one JSON object (the ready line included) with time,
    // level and msg, and every line about a request or a task carries its id.
    const lifecycle = new Set([
      "ready",
      "api listening",
      "api stopped",
      "shutdown requested",
      "shutdown failed",
      "nats disconnected",
      "nats reconnected",
      "worker started",
      "worker stopped",
      "pull failed",
      "malformed task message dropped",
      "grace period over; handing the current task back",
    ]);
    for (const [process, idField] of [[stack.api, "request_id"], ...stack.workers.map((w) => [w, "task_id"] as const)] as const) {
      const all = process.output().split("\n");
      // output() keeps only the last 200,000 characters: its first line may be cut.
      if (process.output().length >= 200_000) all.shift();
      const lines = all.filter((l) => l !== "");
      expect(lines.length).to.be.greaterThan(1);
      for (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        expect(entry, line).to.include.keys("time", "level", "msg");
        if (!lifecycle.has(entry.msg as string)) expect(entry[idField], line).to.be.a("string");
      }
    }
  });
});
