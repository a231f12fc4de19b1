import { expect } from "chai";
import type { ConsumerInfo, JetStreamManager, JsMsg } from "@nats-io/jetstream";
import { FlowPuller } from "../../src/queue/flow-pull.js";
import { ensureFlow, flowConsumer, flowSubject, type FlowState } from "../../src/queue/flows.js";
import { NAMES } from "../../src/queue/names.js";
import type { Nats } from "../../src/queue/connection.js";
import { FairPicker } from "../../src/worker/fair-picker.js";
import { FlowView } from "../../src/worker/flow-view.js";
import { quietLog, withNats } from "../helpers/nats.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const roomy = { name: "roomy", weight: 1, maxSolving: 10 };
const single = { name: "single", weight: 1, maxSolving: 1 };

async function publish(nats: Nats, key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await nats.js.publish(flowSubject(key), JSON.stringify({ taskId: `${key}-${i}` }));
}

/**
 * A manager whose consumers list leaves out one consumer while `leftOut` names it, as a cluster's
 * list does, without an error, for a consumer whose leader does not answer in time.
 */
function partialLists(jsm: JetStreamManager): { jsm: JetStreamManager; leftOut: { name: string | null; all?: boolean } } {
  const leftOut: { name: string | null; all?: boolean } = { name: null };
  const consumers = jsm.consumers;
  async function* list(stream: string): AsyncGenerator<ConsumerInfo> {
    // With `all`, the list does not come (its stream failing over) until `all` is unset.
    while (leftOut.all) await sleep(50);
    for await (const info of consumers.list(stream)) if (info.name !== leftOut.name) yield info;
  }
  const wrapped = Object.create(jsm) as JetStreamManager;
  Object.defineProperty(wrapped, "consumers", {
    value: { list, info: (stream: string, name: string) => consumers.info(stream, name) },
  });
  return { jsm: wrapped, leftOut };
}

/** The view once a list made after the latest change has come (the last list serves while one is slow). */
async function listedAfterChange(view: FlowView, changed: (flows: FlowState[]) => boolean): Promise<FlowState[]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    view.invalidate();
    const flows = await view.current();
    if (changed(flows)) return flows;
    await sleep(50);
  }
  throw new Error("no new list came");
}

describe("worker: flows recovered after a consumers list that leaves one out, and after lost deliveries", function () {
  this.timeout(60_000);
  // A server each: a flow one test leaves behind is not another's to pull from.
  let nats: Awaited<ReturnType<typeof withNats>>;
  beforeEach(async () => {
    nats = await withNats();
  });
  afterEach(async () => {
    await nats.stop();
  });

  it("keeps a flow a list leaves out while its consumer answers alone, and drops it once the consumer is gone", async () => {
    const conn = await nats.connect();
    const [a, c] = ["6c697374", "6c656674"];
    await ensureFlow(conn.jsm, a, roomy, 30_000);
    await ensureFlow(conn.jsm, c, roomy, 30_000);
    await publish(conn, a, 1);
    await publish(conn, c, 2);
    const { jsm, leftOut } = partialLists(conn.jsm);
    const view = new FlowView(jsm);
    const pendingOf = (flows: FlowState[], key: string) => flows.find((f) => f.key === key)?.pending;
    expect(pendingOf(await view.current(), c)).to.equal(2);

    // The list leaves the flow out: its consumer's own info keeps it in the view, up to date.
    leftOut.name = flowConsumer(c);
    await publish(conn, a, 1);
    await publish(conn, c, 1);
    const partial = await listedAfterChange(view, (flows) => pendingOf(flows, a) === 2);
    expect(pendingOf(partial, c), "the flow the list left out").to.equal(3);

    // Gone from the server (removed for inactivity): dropped, not kept from the last state.
    await conn.jsm.consumers.delete(NAMES.taskStream, flowConsumer(c));
    await publish(conn, a, 1);
    const gone = await listedAfterChange(view, (flows) => pendingOf(flows, a) === 3);
    expect(gone.map((f) => f.key)).to.not.include(c);
  });

  it("keeps a flow seen only through a publish after a task is taken from it, while no list comes", async () => {
    const conn = await nats.connect();
    const [a, c] = ["6f6c64", "6e6577"];
    await ensureFlow(conn.jsm, a, roomy, 30_000);
    await publish(conn, a, 1);
    const { jsm, leftOut } = partialLists(conn.jsm);
    const view = new FlowView(jsm);
    expect((await view.current()).map((f) => f.key)).to.not.include(c);

    leftOut.all = true;
    await ensureFlow(conn.jsm, c, roomy, 30_000);
    await publish(conn, c, 2);
    view.published(c);
    const assumed = (await view.current()).find((f) => f.key === c);
    expect(assumed, "the flow published to").to.not.equal(undefined);
    view.took(assumed!, true);
    expect(
      (await view.current()).map((f) => f.key),
      "after one of its tasks was taken",
    ).to.include(c);
    // A pull that finds it empty ends the assumption.
    view.missed(assumed!);
    expect((await view.current()).map((f) => f.key)).to.not.include(c);
    leftOut.all = false;
  });

  it("takes a redelivery from a flow held at its max_solving by a lost delivery while another flow keeps the worker busy", async () => {
    const conn = await nats.connect();
    const [busy, stalled] = ["62757379", "7374616c6c"];
    await ensureFlow(conn.jsm, busy, roomy, 30_000);
    await ensureFlow(conn.jsm, stalled, single, 1000);
    await publish(conn, stalled, 2);
    await publish(conn, busy, 40);
    // A delivery nobody will acknowledge (its worker killed): the flow's one place stays held.
    const puller = new FlowPuller(conn.nc);
    const lost = await puller.pull(flowConsumer(stalled), 5000);
    puller.close();
    expect(lost, "the lost delivery").to.be.an("object");

    const picker = new FairPicker(conn, quietLog);
    const taken: { consumer: string; deliveries: number }[] = [];
    try {
      for (let asked = 0; asked < 400 && taken.filter((t) => t.consumer === flowConsumer(busy)).length < 40; asked++) {
        const m: JsMsg | null = await picker.next();
        if (!m) continue;
        taken.push({ consumer: m.info.consumer, deliveries: m.info.deliveryCount });
        // Each task held briefly, as a short solve would, then acknowledged.
        await sleep(100);
        m.ack();
        picker.released(m, false);
        if (m.info.consumer === flowConsumer(stalled)) break;
      }
    } finally {
      picker.stop();
    }
    const redelivered = taken.findIndex((t) => t.consumer === flowConsumer(stalled));
    expect(redelivered, `taken: ${taken.map((t) => `${t.consumer}#${t.deliveries}`).join(" ")}`).to.be.at.least(0);
    expect(taken[redelivered]!.deliveries, "the lost delivery, delivered again").to.equal(2);
    expect(redelivered, "taken while the busy flow still had tasks queued").to.be.lessThan(40);
  });
});
