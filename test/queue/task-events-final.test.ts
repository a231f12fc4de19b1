import { expect } from "chai";
import { TaskEvents, type StoredTaskEvent } from "../../src/queue/task-events.js";
import { NAMES } from "../../src/queue/names.js";
import type { Nats } from "../../src/queue/connection.js";
import { withNats } from "../helpers/nats.js";

const decoder = new TextDecoder();

/** The task's logged event names, oldest first. */
async function logOf(conn: Nats, taskId: string): Promise<string[]> {
  const consumer = await conn.js.consumers.get(NAMES.eventStream, { filter_subjects: TaskEvents.subject(taskId) });
  const names: string[] = [];
  for (;;) {
    const m = await consumer.next({ expires: 1000 });
    if (!m) break;
    names.push((JSON.parse(decoder.decode(m.data)) as StoredTaskEvent).event);
    if (m.info.pending === 0) break;
  }
  return names;
}

describe("TaskEvents: a task's final event and the one that leads it", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let conn: Nats;
  let events: TaskEvents;
  const solving: StoredTaskEvent = { event: "solving", data: { phase: "solving" } };

  before(async () => {
    nats = await withNats();
    conn = await nats.connect();
    events = new TaskEvents(conn.js, conn.jsm);
  });
  after(async () => {
    await nats?.stop();
  });

  describe("TaskEvents.publishFinalOnce with a leading event (a quick task's solving event)", () => {
    it("logs the leading event just before the final one, and nothing on a second call", async () => {
      const id = "9a1e0c7a-1111-4f57-9d8f-2b1c0a9e7d11";
      await events.publishQueued(id, { phase: "queued" });
      await events.publishFinalOnce(id, "solved", { success: true }, solving);
      await events.publishFinalOnce(id, "solved", { success: true }, solving);
      expect(await logOf(conn, id)).to.deep.equal(["queued", "solving", "solved"]);
    });

    it("does not log the leading event again when the log already ends with it", async () => {
      const id = "9a1e0c7a-2222-4f57-9d8f-2b1c0a9e7d11";
      await events.publishQueued(id, { phase: "queued" });
      await events.publish(id, "solving", { phase: "solving" });
      await events.publishFinalOnce(id, "failed", { success: false }, solving);
      expect(await logOf(conn, id)).to.deep.equal(["queued", "solving", "failed"]);
    });

    it("logs neither when another writer logged the final event first", async () => {
      const id = "9a1e0c7a-3333-4f57-9d8f-2b1c0a9e7d11";
      await events.publishQueued(id, { phase: "queued" });
      await events.publish(id, "failed", { success: false });
      await events.publishFinalOnce(id, "solved", { success: true }, solving);
      expect(await logOf(conn, id)).to.deep.equal(["queued", "failed"]);
    });
  });

  describe("TaskEvents.publishFinalAfterQueued (a quick task's events without reading the log)", () => {
    it("answers a repeated queued event with the first one's sequence", async () => {
      const id = "9a1e0c7a-6666-4f57-9d8f-2b1c0a9e7d11";
      const first = await events.publishQueued(id, { phase: "queued" });
      expect(await events.publishQueued(id, { phase: "queued" })).to.equal(first);
      expect((await events.last(id))?.seq).to.equal(first);
    });

    it("logs solving then the final event after queued, and nothing on a second call", async () => {
      const id = "9a1e0c7a-7777-4f57-9d8f-2b1c0a9e7d11";
      const queuedSeq = await events.publishQueued(id, { phase: "queued" });
      await events.publishFinalAfterQueued(id, "solved", { success: true }, solving, queuedSeq);
      await events.publishFinalAfterQueued(id, "solved", { success: true }, solving, queuedSeq);
      expect(await logOf(conn, id)).to.deep.equal(["queued", "solving", "solved"]);
    });

    it("logs neither when another writer logged the final event first", async () => {
      const id = "9a1e0c7a-8888-4f57-9d8f-2b1c0a9e7d11";
      const queuedSeq = await events.publishQueued(id, { phase: "queued" });
      await events.publish(id, "failed", { success: false });
      await events.publishFinalAfterQueued(id, "solved", { success: true }, solving, queuedSeq);
      expect(await logOf(conn, id)).to.deep.equal(["queued", "failed"]);
    });

    it("logs no second solving event when another writer logged one after queued", async () => {
      const id = "9a1e0c7a-9999-4f57-9d8f-2b1c0a9e7d11";
      const queuedSeq = await events.publishQueued(id, { phase: "queued" });
      await events.publish(id, "solving", { phase: "solving" });
      await events.publishFinalAfterQueued(id, "solved", { success: true }, solving, queuedSeq);
      expect(await logOf(conn, id)).to.deep.equal(["queued", "solving", "solved"]);
    });
  });
});

describe("TaskEvents' reads of the last event with direct gets (one replica)", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let conn: Nats;

  before(async () => {
    nats = await withNats();
    conn = await nats.connect();
  });
  after(async () => {
    await nats?.stop();
  });

  it("reads the same last event, the queued record and nothing for an unknown task as the stream API's get", async () => {
    expect(conn.eventsDirect, "one replica: the stream allows direct gets").to.equal(true);
    const direct = new TaskEvents(conn.js, conn.jsm, true);
    const viaApi = new TaskEvents(conn.js, conn.jsm, false);
    const id = "9a1e0c7a-4444-4f57-9d8f-2b1c0a9e7d11";
    const record = { id, owner: "someone" } as unknown as Parameters<TaskEvents["publishQueued"]>[2];
    await direct.publishQueued(id, { phase: "queued" }, record);
    expect((await direct.queuedRecord(id))?.id).to.equal(id);
    await direct.publish(id, "solving", { phase: "solving" });
    expect(await direct.queuedRecord(id)).to.equal(null);
    const last = await direct.last(id);
    expect(last?.event).to.equal("solving");
    expect(last).to.deep.equal(await viaApi.last(id));
    expect(await direct.last("9a1e0c7a-5555-4f57-9d8f-2b1c0a9e7d11")).to.equal(null);
  });
});
