import { expect } from "chai";
import type { JsMsg } from "@nats-io/jetstream";
import { DeliveredMessage, deliveryInfo } from "../../src/queue/delivered-message.js";
import { FlowPuller } from "../../src/queue/flow-pull.js";
import { ensureFlow, flowConsumer, flowSubject } from "../../src/queue/flows.js";
import { NAMES } from "../../src/queue/names.js";
import { withNats } from "../helpers/nats.js";

const plan = { name: "test", weight: 1, maxSolving: 4 };

function taken(m: JsMsg | null | "timeout"): JsMsg {
  expect(m).to.be.an("object");
  return m as JsMsg;
}

describe("FlowPuller: single pulls from a flow's consumer, answered on core NATS", function () {
  this.timeout(30_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await nats.stop();
  });

  it("reads a delivery's facts from both forms of its reply subject", () => {
    const longForm = deliveryInfo("$JS.ACK.dom.hash.VRP_TASKS.flow_61.3.17.5.1700000000000000000.2.tok");
    expect(longForm).to.include({ domain: "dom", stream: "VRP_TASKS", consumer: "flow_61", deliveryCount: 3, redelivered: true });
    expect(longForm).to.include({ streamSequence: 17, deliverySequence: 5, pending: 2 });
    const shortForm = deliveryInfo("$JS.ACK.VRP_TASKS.flow_61.1.9.4.1700000000000000000.0");
    expect(shortForm).to.include({ domain: "", consumer: "flow_61", deliveryCount: 1, redelivered: false, streamSequence: 9 });
    expect(() => deliveryInfo("_INBOX.abc")).to.throw(/not a JetStream delivery/);
  });

  it("answers null at once from an empty flow, waits for a message when asked, and acks, naks and redelivers", async () => {
    const conn = await nats.connect();
    const key = "70756c6c";
    await ensureFlow(conn.jsm, key, plan, 30_000);
    const puller = new FlowPuller(conn.nc);
    try {
      const started = Date.now();
      expect(await puller.pull(flowConsumer(key), 2000)).to.equal(null);
      expect(Date.now() - started, "no_wait answers at once").to.be.lessThan(1000);

      // A waiting pull is answered by a message stored after it was sent.
      const waiting = puller.pull(flowConsumer(key), 2000, { expiresMs: 1000, waitForMessage: true });
      await new Promise((r) => setTimeout(r, 50));
      await conn.js.publish(flowSubject(key), JSON.stringify({ taskId: "t1" }));
      const first = taken(await waiting);
      expect(first.json<{ taskId: string }>().taskId).to.equal("t1");
      expect(first.info.consumer).to.equal(flowConsumer(key));
      expect(first.info.deliveryCount).to.equal(1);
      expect(Math.abs(first.time.getTime() - Date.now())).to.be.lessThan(5000);

      // Handed back: delivered again, counted as a second delivery; then acknowledged with confirmation.
      first.nak();
      const again = taken(await puller.pull(flowConsumer(key), 2000, { expiresMs: 1000, waitForMessage: true }));
      expect(again.seq).to.equal(first.seq);
      expect(again.redelivered).to.equal(true);
      again.working();
      expect(await again.ackAck()).to.equal(true);
      expect(await again.ackAck(), "a second answer is not sent").to.equal(false);
      const info = await conn.jsm.streams.info(NAMES.taskStream);
      expect(info.state.messages, "acknowledged: gone from the work queue").to.equal(0);
    } finally {
      puller.close();
    }
  });

  it("sends an acknowledgement again after an ackAck the server did not confirm", async () => {
    const conn = await nats.connect();
    const key = "6e6f61636b";
    await ensureFlow(conn.jsm, key, plan, 30_000);
    await conn.js.publish(flowSubject(key), "task");
    const puller = new FlowPuller(conn.nc);
    // Its consumer gone, the delivery's acknowledgements are answered by nobody, as while the
    // consumer's leader changes; another connection sees what is sent (the server does not echo
    // a connection's messages back to it).
    const watcher = await nats.connect();
    const sent: string[] = [];
    const listener = watcher.nc.subscribe(`$JS.ACK.${NAMES.taskStream}.${flowConsumer(key)}.>`, {
      callback: (_err, msg) => {
        sent.push(msg.string());
      },
    });
    try {
      const m = taken(await puller.pull(flowConsumer(key), 2000, { expiresMs: 1000, waitForMessage: true }));
      await conn.jsm.consumers.delete(NAMES.taskStream, flowConsumer(key));
      await watcher.nc.flush();
      await m.ackAck({ timeout: 200 }).then(
        () => expect.fail("confirmed by nobody"),
        () => m.ack(),
      );
      await conn.nc.flush();
      for (let i = 0; i < 40 && sent.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(sent, "the unconfirmed ackAck and the ack sent after it").to.deep.equal(["+ACK", "+ACK"]);
    } finally {
      listener.unsubscribe();
      puller.close();
    }
  });
});
