import { expect } from "chai";
import type { ConsumerInfo, JetStreamManager } from "@nats-io/jetstream";
import { ensureFlow, flowConsumer, flowSubject } from "../../src/queue/flows.js";
import { NAMES } from "../../src/queue/names.js";
import { encodeRecordFirst } from "../../src/queue/task-message.js";
import { TaskStore } from "../../src/queue/task-store.js";
import { sweepKeptMessages } from "../../src/worker/kept-messages.js";
import { quietLog, withNats } from "../helpers/nats.js";
import { queuedTaskRecord } from "../helpers/task-queue.js";

/** The stream's sequences left on `subject`. */
async function sequencesOn(jsm: JetStreamManager, subject: string): Promise<number[]> {
  const info = await jsm.streams.info(NAMES.taskStream);
  const left: number[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(NAMES.taskStream, { seq }).catch(() => null);
    if (m && m.subject === subject) left.push(seq);
  }
  return left;
}

/** A manager whose consumers list shows `consumer`'s messages up to `floor` acknowledged (`count` of them). */
function ackedUpTo(jsm: JetStreamManager, consumer: string, floor: number, count: number): JetStreamManager {
  const consumers = jsm.consumers;
  async function* list(stream: string): AsyncGenerator<ConsumerInfo> {
    for await (const info of consumers.list(stream)) {
      if (info.name !== consumer) yield info;
      else yield { ...info, num_pending: info.num_pending - count, ack_floor: { ...info.ack_floor, stream_seq: floor } };
    }
  }
  const wrapped = Object.create(jsm) as JetStreamManager;
  Object.defineProperty(wrapped, "consumers", { value: { list } });
  return wrapped;
}

describe("worker: acknowledged work messages the stream kept are swept", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await nats.stop();
  });

  it("deletes the messages below their consumer's ack floor whose tasks are finished or given up, and no other", async () => {
    const conn = await nats.connect();
    const store = new TaskStore(conn.tasks);
    const key = "6b657074";
    const subject = flowSubject(key);
    const ids = ["kept-solved", "kept-failed", "kept-abandoned", "kept-queued"];
    const sequences: number[] = [];
    // Another account's queued message between them: its consumer holds it, so it stays.
    const other = flowSubject("6f74686572");
    for (const id of ids) {
      sequences.push((await conn.js.publish(subject, encodeRecordFirst(id))).seq);
      if (id === "kept-failed") await conn.js.publish(other, encodeRecordFirst("kept-solved"));
    }
    const record = (id: string, state: "solved" | "failed" | "queued") => ({
      ...queuedTaskRecord(id, "kept", { nodeNum: 3, vehicleNum: 1 }),
      state,
    });
    await store.admit(record("kept-solved", "solved"));
    await store.admit(record("kept-failed", "failed"));
    expect(await store.abandon("kept-abandoned")).to.equal(true);
    await store.admit(record("kept-queued", "queued"));

    // The flow's consumer as a restarted replica that leads the stream leaves it: the first four
    // messages acknowledged (below the ack floor, neither pending nor ack-pending), yet still
    // stored. A work-queue stream cannot be brought there on one server, so the list says so.
    await ensureFlow(conn.jsm, key, { name: "kept", weight: 1, maxSolving: 2 }, 30_000);
    await ensureFlow(conn.jsm, "6f74686572", { name: "kept", weight: 1, maxSolving: 2 }, 30_000);
    const waiting = (await conn.js.publish(subject, encodeRecordFirst("waiting"))).seq;
    const jsm = ackedUpTo(conn.jsm, flowConsumer(key), sequences[3]!, ids.length);

    expect(await sweepKeptMessages(jsm, store, quietLog)).to.equal(3);
    // The unfinished task's message stays (an ack floor alone is not trusted with a task), and
    // so does the message the consumer has still to deliver.
    expect(await sequencesOn(conn.jsm, subject)).to.deep.equal([sequences[3], waiting]);
    expect(await sequencesOn(conn.jsm, other), "the other account's message").to.deep.equal([sequences[1]! + 1]);
    expect(await sweepKeptMessages(jsm, store, quietLog), "a second sweep").to.equal(0);
  });
});
