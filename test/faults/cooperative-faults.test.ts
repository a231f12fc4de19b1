import { expect } from "chai";
import { after, before, describe, it } from "mocha";
import { generateXxlLike } from "../../bench/xxl-like-instance.js";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import { NAMES } from "../../src/queue/names.js";
import { AccountStore } from "../../src/store/accounts.js";
import { sampleValue } from "../helpers/metrics.js";
import { FaultCluster } from "./cluster.js";
import { CallbackReceiver } from "./load.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A cooperative solve (one owner, two idle workers helping) on the three-node cluster while the
 * help stream's leader is stopped and restarted: items in flight are lost or late, the owner
 * drops them, and the task still ends solved within its limit plus the worker's grace, with one
 * callback.
 */
describe("faults: a cooperative solve while the help stream's leader restarts", function () {
  this.timeout(600_000);
  const cluster = new FaultCluster();
  const callbacks = new CallbackReceiver();
  let headers: Record<string, string> = {};

  before(async () => {
    await callbacks.start();
    await cluster.start({ PLANS_FILE: `${REPO_ROOT}/config/plans.json` });
    const accounts = new AccountStore(cluster.nats.accounts, cluster.nats.apiKeys);
    await accounts.createAccount("cooperative", "large");
    const { key } = await accounts.createKey("cooperative");
    headers = { "content-type": "application/json", "x-user-name": "cooperative", "x-api-key": key };
  });
  after(async () => {
    await cluster.stop();
    callbacks.close();
  });

  it("ends solved within its limit plus grace, with one callback", async () => {
    const limit = 20;
    const { request } = generateXxlLike(0, 5, 1500);
    const body = JSON.stringify({ ...request, strategy: "large", time_limit_seconds: limit, callback_url: callbacks.url });
    const api = cluster.apiUrls()[0]!;
    const submitted = Date.now();
    const answer = await fetch(`${api}/api/v1/solve`, { method: "POST", headers, body });
    expect(answer.status).to.equal(200);
    const id = ((await answer.json()) as { request_id: string }).request_id;
    const taken = async () => {
      let sum = 0;
      for (const w of cluster.workers) {
        if (w) sum += sampleValue(await (await fetch(w.url)).text(), "vrp_help_items_taken_total");
      }
      return sum;
    };
    while ((await taken()) === 0) {
      if (Date.now() - submitted > limit * 1000) throw new Error("no worker took a help item");
      await sleep(200);
    }
    const leader = await cluster.leaderOf(NAMES.helpStream);
    await cluster.stopNode(leader);
    await sleep(3000);
    await cluster.restartNode(leader);
    let result: { success: boolean; result: { status?: string } | null };
    for (;;) {
      await sleep(500);
      const poll = await fetch(`${cluster.apiUrls()[0]}/api/v1/solve/result/${id}`, { headers }).catch(() => null);
      if (!poll?.ok) continue;
      result = (await poll.json()) as typeof result;
      if (!result.success || result.result?.status !== "processing") break;
      if (Date.now() - submitted > (limit + 60) * 1000) throw new Error("the task did not finish");
    }
    const tookS = (Date.now() - submitted) / 1000;
    expect(result.success, JSON.stringify(result).slice(0, 300)).to.equal(true);
    // The worker's hard limit is the task's own plus 30 s; the owner never waits on an item.
    expect(tookS, "solved within its limit plus grace").to.be.below(limit + 30);
    await sleep(2000);
    expect(callbacks.hits.get(id), "one callback").to.equal(1);
    expect(cluster.unhandledErrors()).to.equal("");
  });
});
