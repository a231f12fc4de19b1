import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config/load.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { TaskStore } from "../../src/queue/task-store.js";
import { quietLog } from "../helpers/nats.js";
import { cvrpRequest } from "../helpers/requests.js";
import { startStack, type Stack } from "../helpers/stack.js";

const FIXTURE_PLANS = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));
const TINY = JSON.stringify({ ...cvrpRequest({ customers: 3, vehicles: 1, capacity: 50 }), time_limit_seconds: 1 });
const QUOTA = 200;
const RATE = 200;

/** The fixtures' plans with two more: a small monthly quota, and a small per-minute rate. */
function plansFile(dir: string): string {
  const plans = JSON.parse(readFileSync(FIXTURE_PLANS, "utf8")) as { plans: Record<string, Record<string, unknown>> };
  const fuzz = plans.plans.fuzz!;
  plans.plans["two-api-quota"] = { ...fuzz, monthly_quota: QUOTA };
  plans.plans["two-api-rate"] = { ...fuzz, submits_per_minute: RATE };
  const file = join(dir, "plans.json");
  writeFileSync(file, JSON.stringify(plans));
  return file;
}

/**
 * A busy account's rate and quota are taken in blocks by each API instance (counter-lease.ts).
 * Submits past the limit sent to two API instances at once: exactly the limit accepted, the rest
 * refused with the limit's 429, and every accepted task solved, once.
 */
describe("limits exact across two API instances", function () {
  this.timeout(120_000);
  let stack: Stack;
  let nats: Nats;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "vrp-two-apis-"));
    stack = await startStack({
      apis: 2,
      workers: 2,
      env: { PLANS_FILE: plansFile(dir), LOG_LEVEL: "warn", SELF_CHECK_RESPONSES: "false" },
    });
    nats = await connectNats(loadConfig(stack.env), "two-apis-test", quietLog);
  });
  after(async () => {
    await nats?.close();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `count` submits, 16 at a time on each instance; the status and code (or task id) of each. */
  async function burst(headers: Record<string, string>, count: number): Promise<{ status: number; id?: string; code?: string }[]> {
    const answers: { status: number; id?: string; code?: string }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async (_, lane) => {
        const api = stack.apis[lane % 2]!;
        while (next < count) {
          next++;
          const res = await fetch(`${api.url}/api/v1/solve`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: TINY,
          });
          const body = (await res.json()) as { request_id?: string; code?: string };
          answers.push({ status: res.status, id: body.request_id, code: body.code });
        }
      }),
    );
    return answers;
  }

  /** Every accepted task ends solved, with one solve attempt: nothing lost, nothing run twice. */
  async function expectSolvedOnce(ids: string[]): Promise<void> {
    const store = new TaskStore(nats.tasks);
    const pending = new Set(ids);
    const deadline = Date.now() + 60_000;
    while (pending.size > 0 && Date.now() < deadline) {
      for (const id of [...pending]) {
        const task = await store.get(id);
        if (task?.state === "solved" || task?.state === "failed") {
          expect(task.state, id).to.equal("solved");
          expect(task.solveAttempts, id).to.equal(1);
          pending.delete(id);
        }
      }
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(pending.size, "accepted tasks not solved").to.equal(0);
  }

  it("accepts exactly the monthly quota from two instances at once; the rest 429 monthly_quota_exceeded", async () => {
    const { headers } = await stack.account("two-api-quota", "two-api-quota");
    const answers = await burst(headers, QUOTA + 60);
    const accepted = answers.filter((a) => a.status === 200);
    expect(accepted, JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 429).slice(0, 3))).to.have.length(QUOTA);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).to.have.length(60);
    for (const a of refused) expect([a.status, a.code]).to.deep.equal([429, "monthly_quota_exceeded"]);
    expect(new Set(accepted.map((a) => a.id)).size).to.equal(QUOTA);
    await expectSolvedOnce(accepted.map((a) => a.id!));
  });

  it("accepts exactly the per-minute rate from two instances at once; the rest 429 rate_limit_exceeded", async () => {
    const { headers } = await stack.account("two-api-rate", "two-api-rate");
    // The rate is counted per fixed minute: keep the burst inside one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const answers = await burst(headers, RATE + 60);
    const accepted = answers.filter((a) => a.status === 200);
    expect(accepted).to.have.length(RATE);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).to.have.length(60);
    for (const a of refused) expect([a.status, a.code]).to.deep.equal([429, "rate_limit_exceeded"]);
    await expectSolvedOnce(accepted.map((a) => a.id!));
  });
});
