import { expect } from "chai";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { expectMatchesSpec, loadSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

interface Envelope {
  success: boolean;
  request_id: string;
  error: string | null;
  code?: string;
  result: unknown;
  detail?: { loc: string[]; msg: string; type: string }[];
}

/** The rough edges a partner met on the first day, each against the running service. */
describe("a partner's first day: rough edges", function () {
  this.timeout(90_000);
  let stack: Stack;
  let headers: Record<string, string>;
  const small = () => ({ ...cvrpRequest({ customers: 5, vehicles: 2, capacity: 30 }), time_limit_seconds: 1 });

  async function call(
    operationId: string,
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; body: Envelope; headers: Headers }> {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const body = (await res.json()) as Envelope;
    await expectMatchesSpec(operationId, res.status, body);
    return { status: res.status, body, headers: res.headers };
  }
  const submitRaw = (raw: string, query = "") =>
    call("submitSolve", "POST", `/api/v1/solve${query}`, { headers: { "content-type": "application/json" }, body: raw });

  before(async () => {
    stack = await startStack({ workers: 1 });
    headers = (await stack.account("partner", "pro")).headers;
  });
  after(async () => {
    await stack?.stop();
  });

  it('answers well-formed JSON that is not an object with one 422 at ["body"], and text that is not JSON with 400', async () => {
    for (const [raw, kind] of [
      ["5", "a number"],
      ["true", "a boolean"],
      ['"hello"', "a string"],
      ["[]", "an array"],
      ["null", "null"],
      ["", "an empty body"],
    ] as const) {
      const r = await submitRaw(raw);
      expect(r.status, raw).to.equal(422);
      expect(r.body.code).to.equal("validation_failed");
      expect(r.body.detail, raw).to.deep.equal([
        { loc: ["body"], msg: `the request body must be a JSON object (the solve request), got ${kind}`, type: "object_type" },
      ]);
    }
    for (const raw of ["{", "hello", "5 6", "   "]) {
      const r = await submitRaw(raw);
      expect(r.status, raw).to.equal(400);
      expect(r.body.code, raw).to.equal("malformed_json");
    }
  });

  it("answers a method a path does not support with 405, the Allow header and the documented envelope", async () => {
    const doc = loadSpec() as { paths: Record<string, Record<string, { operationId: string }>> };
    let checked = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      const methods = Object.keys(item).filter((m) => !m.startsWith("x-"));
      const path = template.replace("{request_id}", "00000000-0000-4000-8000-000000000000");
      for (const wrong of ["DELETE", "PUT", "PATCH", "POST", "GET"].filter((m) => !methods.includes(m.toLowerCase())).slice(0, 3)) {
        const r = await call(item[methods[0]!]!.operationId, wrong, path);
        expect(r.status, `${wrong} ${path}`).to.equal(405);
        expect(r.body.code).to.equal("method_not_allowed");
        expect(r.headers.get("allow"), `${wrong} ${path}`).to.equal(methods.map((m) => m.toUpperCase()).join(", "));
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(15);
  });

  it('refuses a history cursor that is garbage or another account\'s with 422 on ["query","cursor"]', async () => {
    for (let i = 0; i < 3; i++) expect((await submitRaw(JSON.stringify({ ...small(), name: `cursor ${i}` }))).status).to.equal(200);
    const first = await call("listHistory", "GET", "/api/v1/history?limit=1");
    const cursor = (first.body.result as { next_cursor: string | null }).next_cursor;
    expect(cursor).to.be.a("string");
    const next = await call("listHistory", "GET", `/api/v1/history?limit=1&cursor=${encodeURIComponent(cursor!)}`);
    expect(next.status).to.equal(200);
    expect((next.body.result as { items: unknown[] }).items).to.have.length(1);

    const other = await stack.account("other-partner", "pro");
    const foreign = await call("listHistory", "GET", `/api/v1/history?cursor=${encodeURIComponent(cursor!)}`, { headers: other.headers });
    for (const r of [await call("listHistory", "GET", "/api/v1/history?cursor=garbage"), foreign]) {
      expect(r.status).to.equal(422);
      expect(r.body.detail!.map((d) => d.loc)).to.deep.equal([["query", "cursor"]]);
      expect(r.body.detail![0]!.msg).to.match(/next_cursor/);
    }
  });

  it("ignores unknown query parameters on every operation, and still validates the documented ones", async () => {
    const bust = "_=1732350000&utm_source=proxy";
    const accepted = await submitRaw(JSON.stringify(small()), `?${bust}`);
    expect(accepted.status).to.equal(200);
    const id = accepted.body.request_id;
    await pollUntil(apiClient(stack.baseUrl, headers), id, isFinished);
    expect((await call("getSolveResult", "GET", `/api/v1/solve/result/${id}?${bust}`)).status).to.equal(200);
    const withExtras = await call("listHistory", "GET", `/api/v1/history?limit=2&${bust}`);
    const without = await call("listHistory", "GET", "/api/v1/history?limit=2");
    expect(withExtras.status).to.equal(200);
    expect(withExtras.body.result).to.deep.equal(without.body.result);
    expect((await call("downloadHistoryItem", "GET", `/api/v1/history/${id}?${bust}`)).status).to.equal(200);
    const badLimit = await call("listHistory", "GET", `/api/v1/history?limit=0&${bust}`);
    expect(badLimit.status).to.equal(422);
    expect(badLimit.body.detail!.map((d) => d.loc)).to.deep.equal([["query", "limit"]]);
  });

  it('accepts "" and null for max_working_hours as no cap, and still refuses other strings', async () => {
    const timed = () => {
      const body = small();
      return {
        ...body,
        node_time_windows: body.node_demands.map(() => [0, 600]),
        node_service_time: body.node_demands.map(() => 5),
        vehicle_speeds: [1, 1],
      };
    };
    const client = apiClient(stack.baseUrl, headers);
    for (const noCap of ["", null]) {
      const r = await submitRaw(JSON.stringify({ ...timed(), max_working_hours: noCap }));
      expect(r.status, JSON.stringify(noCap)).to.equal(200);
      // Read as a cap of 0 hours, no route could be driven: the task would fail.
      const done = await pollUntil(client, r.body.request_id, isFinished);
      expect(done.success, JSON.stringify(done)).to.equal(true);
    }
    const bad = await submitRaw(JSON.stringify({ ...timed(), max_working_hours: "eight" }));
    expect(bad.status).to.equal(422);
    expect(bad.body.detail!.map((d) => d.loc)).to.deep.equal([["body", "max_working_hours"]]);
  });
});
