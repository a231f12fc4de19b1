import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { expectMatchesSpec } from "../helpers/spec.js";
import { startStack, type Stack } from "../helpers/stack.js";

const EXAMPLE = readFileSync(join(REPO_ROOT, "examples/small-cvrp.json"), "utf8");

/** A message a person reads: no Infinity, no regular expression, no bare type keyword. */
function expectPlainSentence(msg: string): void {
  expect(msg).to.not.match(/Infinity|NaN|\^|\$"|\[Hh\]|must be (number|integer|string|array|object)\b|must match (pattern|format)/);
}

/**
 * The wording of answers to extreme or hostile values, sent as raw JSON text (1e400 cannot be
 * written from a JavaScript object), through the real API.
 */
describe("answers to extreme numbers and a javascript: callback are plain sentences", function () {
  this.timeout(60_000);
  let stack: Stack;
  let headers: Record<string, string>;
  before(async () => {
    stack = await startStack({ workers: 0 });
    headers = { ...(await stack.account("plain", "pro")).headers, "Content-Type": "application/json" };
  });
  after(async () => stack?.stop());

  /** The example with its second demand written as `literal`, exactly as given. */
  const withDemand = (literal: string) => EXAMPLE.replace(/"node_demands": \[\s*0,\s*\d+/, (m) => m.replace(/\d+$/, literal));

  it("a demand of 1e400 (beyond a double) is a 422 that says the number is too large", async () => {
    const body = withDemand("1e400");
    expect(body).to.include("1e400");
    const answer = await fetch(`${stack.baseUrl}/api/v1/solve`, { method: "POST", headers, body });
    expect(answer.status).to.equal(422);
    const json = (await answer.json()) as { detail: { loc: string[]; msg: string }[] };
    await expectMatchesSpec("submitSolve", 422, json);
    expect(json.detail).to.deep.equal([
      {
        loc: ["body", "node_demands", "1"],
        msg: "must be a finite number; this one is too large to represent (the largest is about 1.8e308)",
        type: "number_type",
      },
    ]);
  });

  it("a demand of 1e300 is explained with finite numbers, by the infeasibility pre-check or by a bound", async () => {
    // The diagnostics' own wording, whatever the request schema admits.
    const request = JSON.parse(withDemand("1e300")) as SolveRequestInput;
    const [single, total] = infeasibilities(compileRequest(request).problem);
    expect(single!.message).to.equal("node 1 demand 1e300 exceeds the largest vehicle capacity 8 by 1e300");
    expect(single!.evidence).to.deep.equal({ demand: 1e300, largest_capacity: 8, excess: 1e300 });
    expect(total!.message).to.equal("total demand 1e300 exceeds the total capacity of all vehicles 16 by 1e300");
    // Through the API: a report of why it cannot be solved, or a 422 for a documented bound.
    const answer = await fetch(`${stack.baseUrl}/api/v1/solve/validate`, { method: "POST", headers, body: withDemand("1e300") });
    const json = (await answer.json()) as {
      result: { rejection: { detail?: { msg: string }[] } | null; infeasibilities: { message: string }[] };
    };
    await expectMatchesSpec("validateSolve", answer.status, json);
    const messages = [...json.result.infeasibilities.map((i) => i.message), ...(json.result.rejection?.detail ?? []).map((d) => d.msg)];
    expect(messages.length).to.be.greaterThan(0);
    for (const m of messages) expectPlainSentence(m);
  });

  it("a javascript: callback URL is refused in words, without the pattern", async () => {
    const body = JSON.stringify({ ...(JSON.parse(EXAMPLE) as object), callback_url: "javascript:alert(1)" });
    const answer = await fetch(`${stack.baseUrl}/api/v1/solve`, { method: "POST", headers, body });
    expect(answer.status).to.equal(422);
    const json = (await answer.json()) as { detail: { loc: string[]; msg: string }[] };
    await expectMatchesSpec("submitSolve", 422, json);
    expect(json.detail).to.deep.equal([
      { loc: ["body", "callback_url"], msg: "must be a web address starting with http:// or https://", type: "string_pattern_mismatch" },
    ]);
  });

  it("type errors read as sentences", async () => {
    const body = JSON.stringify({ ...(JSON.parse(EXAMPLE) as object), node_num: "5", vehicles_capacity: "8" });
    const json = (await (await fetch(`${stack.baseUrl}/api/v1/solve`, { method: "POST", headers, body })).json()) as {
      detail: { loc: string[]; msg: string }[];
    };
    const byField = Object.fromEntries(json.detail.map((d) => [d.loc.slice(1).join("."), d.msg]));
    expect(byField).to.include({ node_num: "must be an integer", vehicles_capacity: "must be an array" });
    for (const d of json.detail) expectPlainSentence(d.msg);
  });
});
