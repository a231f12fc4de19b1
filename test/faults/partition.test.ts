import { expect } from "chai";
import { after, before, describe, it } from "mocha";
import { NAMES } from "../../src/queue/names.js";
import { FaultCluster } from "./cluster.js";
import { CallbackReceiver } from "./load.js";
import { NetworkLab } from "./netns.js";
import { scenarioRunner } from "./scenario.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PARTITION_MS = 30_000;

/**
 * A network partition: the same system as the other fault scenarios, but each NATS node
 * in its own network namespace behind a veth pair and a bridge (NetworkLab), so one node can be
 * cut off for real (its packets lost, its process running, its clients' connections left hanging
 * rather than reset). Needs root; where that is missing the scenario is reported as not run
 * (pending, with the reason), never as passed.
 */
describe("faults: a real 30 s network partition of one NATS node", function () {
  this.timeout(900_000);
  const reason = NetworkLab.unavailable();
  const network = reason === null ? new NetworkLab(3) : null;
  const cluster = new FaultCluster(network);
  const callbacks = new CallbackReceiver();
  const accepted = new Set<string>();

  before(async function () {
    if (reason !== null) {
      console.log(`      NOT RUN: network partition scenario: ${reason}`);
      this.skip();
    }
    await callbacks.start();
    await cluster.start();
    console.log(`      service logs: ${cluster.logDir}`);
  });
  after(async () => {
    await cluster.stop();
    callbacks.close();
  });

  const scenario = scenarioRunner(cluster, callbacks, accepted);

  it("the task stream's leader cut off the network for 30 s", async () => {
    await scenario("partitioned leader", async () => {
      const leader = await cluster.leaderOf(NAMES.taskStream);
      cluster.cutNode(leader);
      try {
        await sleep(PARTITION_MS);
      } finally {
        cluster.healNode(leader);
      }
    });
  });

  it("leaves no namespace, link or bridge behind", async () => {
    await cluster.stop();
    expect(network!.leftovers()).to.deep.equal([]);
  });
});
