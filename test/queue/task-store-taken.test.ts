import { expect } from "chai";
import type { KV } from "@nats-io/kv";
import { EntryUnsettled, TaskStore, type TaskRecord } from "../../src/queue/task-store.js";

const encoder = new TextEncoder();

/**
 * A bucket whose `create` always finds the key taken and whose reads answer "missing" a given
 * number of times before the entry shows: what a read right after a leader change can do.
 */
function takenKey(entry: object, missingReads: number): { kv: KV; reads: () => number } {
  let reads = 0;
  const kv = {
    create: async () => {
      throw new Error("wrong last sequence: key exists");
    },
    get: async () => {
      reads++;
      if (reads <= missingReads) return null;
      return { operation: "PUT", length: 1, value: encoder.encode(JSON.stringify(entry)), revision: 7 };
    },
  };
  return { kv: kv as unknown as KV, reads: () => reads };
}

const record = { id: "t1", owner: "o", state: "queued", updatedAt: new Date().toISOString() } as unknown as TaskRecord;

describe("TaskStore: a create that finds the key taken (fault suite)", () => {
  it("abandon asks again when the read-back answers missing, and sees the record: the admission won", async () => {
    const bucket = takenKey(record, 3);
    expect(await new TaskStore(bucket.kv).abandon("t1")).to.equal(false);
    expect(bucket.reads()).to.equal(4);
  });

  it("admit asks again too, and returns the record's revision instead of calling the admission abandoned", async () => {
    const bucket = takenKey(record, 2);
    expect(await new TaskStore(bucket.kv).admit({ ...record })).to.equal(7);
  });

  it("a tombstone read back after missing answers is still a tombstone", async () => {
    const bucket = takenKey({ abandoned: true, at: new Date().toISOString() }, 1);
    expect(await new TaskStore(bucket.kv).abandon("t1")).to.equal(true);
  });

  it("throws EntryUnsettled when the entry never shows, rather than answering either way", async () => {
    const bucket = takenKey(record, Number.POSITIVE_INFINITY);
    const outcome = await new TaskStore(bucket.kv).abandon("t1").then(
      () => null,
      (err: unknown) => err,
    );
    expect(outcome).to.be.instanceOf(EntryUnsettled);
  });
});
