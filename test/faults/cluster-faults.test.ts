import { after, before, describe, it } from "mocha";
import { NAMES } from "../../src/queue/names.js";
import { FaultCluster } from "./cluster.js";
import { CallbackReceiver } from "./load.js";
import { scenarioRunner } from "./scenario.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The fault suite (`make test-faults`): a real three-node JetStream cluster (replicas 3),
 * two API instances, three workers and a callback receiver on 127.0.0.1. Each scenario puts a
 * bounded load of tiny solves through the system while one fault happens, lets it recover by
 * itself, and checks that nothing was lost, duplicated or stranded (see checks.ts).
 */
describe("faults: a three-node NATS cluster, two API instances, three workers under load", function () {
  this.timeout(900_000);
  const cluster = new FaultCluster();
  const callbacks = new CallbackReceiver();
  const accepted = new Set<string>();

  before(async () => {
    await callbacks.start();
    await cluster.start();
    console.log(`      service logs: ${cluster.logDir}`);
  });
  after(async () => {
    await cluster.stop();
    callbacks.close();
  });

  const scenario = scenarioRunner(cluster, callbacks, accepted);

  it("the task stream's leader frozen (SIGSTOP) for 15 s", async () => {
    await scenario("frozen leader", async () => {
      const leader = await cluster.leaderOf(NAMES.taskStream);
      cluster.signalNode(leader, "SIGSTOP");
      await sleep(15_000);
      cluster.signalNode(leader, "SIGCONT");
    });
  });

  it("the whole cluster stopped with tasks queued, restarted 10 s later", async () => {
    await scenario("cluster restart", async () => {
      await Promise.all([0, 1, 2].map((i) => cluster.stopNode(i)));
      await sleep(10_000);
      await Promise.all([0, 1, 2].map((i) => cluster.restartNode(i)));
      await cluster.awaitJetStream(120_000);
    });
  });

  /**
   * A worker killed after its callback's POST and before it recorded the outcome cannot know
   * whether the partner got it: the task's next worker sends it again once the claim is stale,
   * with the same webhook-id (a lost callback would be worse). So here, and only here, a repeat
   * per kill is allowed; every other scenario must give exactly one callback per task.
   */
  it("workers SIGKILLed every 3 s", async () => {
    const KILLS = 8;
    await scenario(
      "worker kills",
      async () => {
        for (let round = 0; round < KILLS; round++) {
          const i = round % 3;
          cluster.killWorker(i);
          await sleep(500);
          await cluster.restartWorker(i);
          await sleep(2500);
        }
      },
      KILLS,
    );
  });

  it("the leaders of the task, idempotency and history buckets killed (SIGKILL) and restarted", async () => {
    await scenario("KV leaders killed", async () => {
      for (const bucket of [NAMES.taskBucket, NAMES.idempotencyBucket, NAMES.historyBucket]) {
        const leader = await cluster.leaderOf(`KV_${bucket}`);
        await cluster.killNode(leader);
        await sleep(5_000);
        await cluster.restartNode(leader);
        await sleep(3_000);
      }
    });
  });

  it("an API instance killed (SIGKILL) mid-load and restarted", async () => {
    await scenario("API killed", async () => {
      // A moment after a submission starts, so that submits are in flight on the instance.
      await sleep(5);
      cluster.killApi(1);
      await sleep(5_000);
      await cluster.restartApi(1);
    });
  });
});
