import { expect } from "chai";
import type { TaskRecord } from "../../src/queue/task-store.js";
import { HistoryStore } from "../../src/store/history.js";
import { withNats } from "../helpers/nats.js";
import { queuedTaskRecord } from "../helpers/task-queue.js";

/** A direct task's record as the submit writes it. */
const queuedTask = (id: string): TaskRecord => queuedTaskRecord(id, "ann", { nodeNum: 4, vehicleNum: 1 });

function solvedOf(task: TaskRecord, totalCost: number): TaskRecord {
  return { ...task, state: "solved", result: { total_cost: totalCost } as unknown as TaskRecord["result"] };
}

describe("planning history: one entry write for a small task, its final state read from the kept download", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let history: HistoryStore;
  let revisionOf: (task: TaskRecord) => Promise<number | null>;

  before(async () => {
    nats = await withNats();
    const conn = await nats.connect();
    history = new HistoryStore(conn.history, conn.requests, conn.requestBodies);
    revisionOf = async (task) => {
      for await (const key of await conn.history.keys(`h.*.*.${task.id}`)) return (await conn.history.get(key))?.revision ?? null;
      return null;
    };
  });
  after(async () => {
    await nats?.stop();
  });

  it("keeps the submit's entry of a small solved task and lists it solved with its cost", async () => {
    const task = queuedTask("0b5e1c7a-1111-4f57-9d8f-2b1c0a9e7d11");
    await history.record(task);
    const written = await revisionOf(task);
    await history.finish(solvedOf(task, 42), { success: true, request_id: task.id, error: null, result: { total_cost: 42 } }, "{}");
    expect(await revisionOf(task), "the entry was written again").to.equal(written);
    expect(await history.find("ann", task.id)).to.include({ state: "solved", total_cost: 42 });
    const listed = (await history.list("ann", 100, null)).items.find((e) => e.request_id === task.id);
    expect(listed).to.include({ state: "solved", total_cost: 42 });
  });

  it("lists a small failed task failed, also when its download holds the final body alone", async () => {
    const task = queuedTask("0b5e1c7a-2222-4f57-9d8f-2b1c0a9e7d11");
    await history.record(task);
    await history.finish({ ...task, state: "failed" }, { success: false, request_id: task.id, error: "no", result: null });
    expect(await history.find("ann", task.id)).to.include({ state: "failed", total_cost: null });
  });

  it("lists a task still queued as queued", async () => {
    const task = queuedTask("0b5e1c7a-3333-4f57-9d8f-2b1c0a9e7d11");
    await history.record(task);
    expect(await history.find("ann", task.id)).to.include({ state: "queued", total_cost: null });
  });

  it("updates the entry of a task whose download is too large to read with the listing", async () => {
    const task = queuedTask("0b5e1c7a-4444-4f57-9d8f-2b1c0a9e7d11");
    await history.record(task);
    const written = await revisionOf(task);
    const large = { success: true, request_id: task.id, error: null, result: { total_cost: 7, padding: "x".repeat(64 * 1024) } };
    await history.finish(solvedOf(task, 7), large, "{}");
    expect(await revisionOf(task)).to.not.equal(written);
    expect(await history.find("ann", task.id)).to.include({ state: "solved", total_cost: 7 });
  });

  it("keeps the worker's entry when the task finished before its submit wrote one; the late write changes nothing", async () => {
    const task = queuedTask("0b5e1c7a-6666-4f57-9d8f-2b1c0a9e7d11");
    await history.finish(solvedOf(task, 9), { success: true, request_id: task.id, error: null, result: { total_cost: 9 } }, "{}");
    const written = await revisionOf(task);
    expect(written, "the worker wrote the missing entry").to.not.equal(null);
    await history.record(task);
    expect(await revisionOf(task), "the submit's late write overwrote it").to.equal(written);
    expect(await history.find("ann", task.id)).to.include({ state: "solved", total_cost: 9 });
  });

  it("keeps a deleted task deleted and removes the download kept after the deletion", async () => {
    const task = queuedTask("0b5e1c7a-5555-4f57-9d8f-2b1c0a9e7d11");
    await history.record(task);
    await history.markDeleted(task);
    await history.finish(solvedOf(task, 3), { success: true, request_id: task.id, error: null, result: { total_cost: 3 } }, "{}");
    expect(await history.find("ann", task.id)).to.include({ state: "deleted" });
    expect(await history.keptDownload(task.id)).to.equal(null);
  });
  it("with the entry stored before the commit, keeps a small download in one write and leaves the entry alone", async () => {
    const task = queuedTask("0b5e1c7a-7777-4f57-9d8f-2b1c0a9e7d11");
    expect(await history.record(task), "the submit's write stored the entry").to.equal(true);
    const written = await revisionOf(task);
    const body = { success: true, request_id: task.id, error: null, result: { total_cost: 11 } };
    await history.finish(solvedOf(task, 11), body, '{"node_num":4}', true);
    // A redelivery keeps it again: refused as a copy already kept, not an error.
    await history.finish(solvedOf(task, 11), body, '{"node_num":4}', true);
    expect(await revisionOf(task), "the entry was written again").to.equal(written);
    expect(await history.find("ann", task.id)).to.include({ state: "solved", total_cost: 11 });
    expect(await history.keptDownload(task.id)).to.deep.equal({ request: { node_num: 4 }, result: body });
  });

  it("with the entry stored before the commit, a copy kept after the result's deletion is refused", async () => {
    const task = queuedTask("0b5e1c7a-8888-4f57-9d8f-2b1c0a9e7d11");
    await history.record(task);
    // The deletion as the handler runs it, between the stored result and the worker's copy.
    await history.markDeleted(task);
    await history.removeFinalBody(task.id);
    await history.finish(solvedOf(task, 5), { success: true, request_id: task.id, error: null, result: { total_cost: 5 } }, "{}", true);
    expect(await history.keptDownload(task.id), "the copy came back").to.equal(null);
    expect(await history.find("ann", task.id)).to.include({ state: "deleted" });
  });

  it("forgets the entry of a submit given up before its task could run", async () => {
    const task = queuedTask("0b5e1c7a-9999-4f57-9d8f-2b1c0a9e7d11");
    await history.record(task);
    await history.forget(task);
    expect(await history.find("ann", task.id)).to.equal(null);
    expect((await history.list("ann", 100, null)).items.map((e) => e.request_id)).to.not.include(task.id);
    // Known by its id only (a repeat settling a dead instance's pending admission).
    const settled = queuedTask("0b5e1c7a-aaaa-4f57-9d8f-2b1c0a9e7d11");
    await history.record(settled);
    await history.forgetAbandoned("ann", settled.id);
    expect(await history.find("ann", settled.id)).to.equal(null);
  });
});
