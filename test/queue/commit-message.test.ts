import { expect } from "chai";
import { errors, type Msg, type NatsConnection, type RequestOptions } from "@nats-io/transport-node";
import { commitMessage, historyEntryOf, undoWrites } from "../../src/api/admit-task.js";
import { FAIR_SHARE_DEFAULTS, type Plan } from "../../src/config/plans.js";
import { ApiError } from "../../src/errors/api-error.js";
import type { Nats } from "../../src/queue/connection.js";
import { flowKey, flowSubject } from "../../src/queue/flows.js";
import { NAMES } from "../../src/queue/names.js";
import { TaskEvents } from "../../src/queue/task-events.js";
import { decodeTaskMessage } from "../../src/queue/task-message.js";
import { TaskQueue } from "../../src/queue/task-queue.js";
import type { TaskRecord } from "../../src/queue/task-store.js";
import { HistoryStore } from "../../src/store/history.js";
import { quietLog, withNats } from "../helpers/nats.js";
import { queuedTaskRecord } from "../helpers/task-queue.js";

const PLAN: Plan = {
  name: "enterprise",
  apiAccess: true,
  maxNodes: 10,
  maxVehicles: 2,
  maxSolveSeconds: 5,
  submitsPerMinute: 1000,
  monthlyQuota: 100_000,
  ...FAIR_SHARE_DEFAULTS,
};
const BODY = JSON.stringify({ node_num: 3 });

type Request = NatsConnection["request"];

/**
 * Makes the connection's requests to `subject` go wrong as `fault` says: given the real request,
 * it returns what the caller sees. Returns a count of such requests so far.
 */
function interceptRequests(nats: Nats, subject: string, fault: (real: () => Promise<Msg>, call: number) => Promise<Msg>): () => number {
  const real: Request = nats.nc.request.bind(nats.nc);
  let calls = 0;
  nats.nc.request = ((subj: string, payload?: Parameters<Request>[1], opts?: RequestOptions) =>
    subj === subject ? fault(() => real(subj, payload, opts), ++calls) : real(subj, payload, opts)) as Request;
  return () => calls;
}

/** The submit's commit of `task` as the handler runs it (TaskQueue.commitMessage inside admit-task's commitMessage). */
async function commit(queue: TaskQueue, events: TaskEvents, task: TaskRecord): Promise<{ uncertain: boolean }> {
  const room = await queue.roomFor(task.owner, PLAN);
  const outcome = { uncertain: false };
  const logged = (record: TaskRecord) => events.publishQueued(record.id, { queued: true }, record);
  await commitMessage(queue, task, queue.commitMessage(task, BODY, room, logged), quietLog, outcome);
  return outcome;
}

/** Messages stored on the account's flow subject. */
async function storedOnFlow(nats: Nats, owner: string): Promise<number> {
  const subject = flowSubject(flowKey(owner));
  const info = await nats.jsm.streams.info(NAMES.taskStream, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}

describe("the committing publish of a submit whose answer goes missing", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await nats?.stop();
  });

  it("accepts a task whose message was stored although its acknowledgement was lost: one message, no tombstone", async () => {
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const events = new TaskEvents(conn.js, conn.jsm, conn.eventsDirect);
    const task = queuedTaskRecord("0f5b2a3e-1c4d-4e6f-8a9b-0c1d2e3f4a5b", "lost-ack", { nodeNum: 3, vehicleNum: 1 });
    // The first publish reaches the stream, but the client never sees its answer (as with a
    // server that stalls past the request timeout): what the submit learns comes from the repeat.
    const calls = interceptRequests(conn, flowSubject(flowKey(task.owner)), async (real, call) => {
      const answer = await real();
      if (call === 1) throw new errors.TimeoutError();
      return answer;
    });
    const outcome = await commit(queue, events, task);
    expect(calls(), "the publish was asked again").to.equal(2);
    expect(outcome.uncertain).to.equal(false);
    expect(await storedOnFlow(conn, task.owner), "the repeat is a duplicate, not a second task").to.equal(1);
    expect((await queue.store.read(task.id)).kind, "no tombstone stops the task").to.equal("missing");
    expect((await queue.store.get(task.id))?.state, "a poll finds the task queued").to.equal("queued");
  });

  it("carries the sequence of the task's queued event, for the worker's events after it", async () => {
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const events = new TaskEvents(conn.js, conn.jsm, conn.eventsDirect);
    const task = queuedTaskRecord("2b7d4c5a-3e6f-4a81-8cbd-2e3f4a5b6c7d", "queued-seq", { nodeNum: 3, vehicleNum: 1 });
    await commit(queue, events, task);
    const stored = await conn.jsm.streams.getMessage(NAMES.taskStream, { last_by_subj: flowSubject(flowKey(task.owner)) });
    const message = stored ? decodeTaskMessage(stored.data) : null;
    expect(message?.layout).to.equal("committed");
    const queued = await events.last(task.id);
    expect(queued?.event).to.equal("queued");
    expect(message?.layout === "committed" ? message.queuedSeq : null).to.equal(queued?.seq);
  });

  it("still refuses, with a tombstone, a task whose publish was never stored", async () => {
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const events = new TaskEvents(conn.js, conn.jsm, conn.eventsDirect);
    const task = queuedTaskRecord("1a6c3b4f-2d5e-4f70-9bac-1d2e3f4a5b6c", "never-stored", { nodeNum: 3, vehicleNum: 1 });
    const calls = interceptRequests(conn, flowSubject(flowKey(task.owner)), () => Promise.reject(new errors.TimeoutError()));
    const refused = await commit(queue, events, task).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused, "the submit is refused").to.be.instanceOf(Error);
    expect(refused).not.to.be.instanceOf(ApiError);
    expect(calls(), "asked again before giving up").to.be.greaterThan(1);
    expect(await storedOnFlow(conn, task.owner)).to.equal(0);
    expect((await queue.store.read(task.id)).kind, "the given-up task is a tombstone").to.equal("abandoned");
    expect(await queue.store.get(task.id), "and is never polled as a task").to.equal(null);
  });

  it("settles a refused task's fate while NATS does not answer: the tombstone asked again until it is written", async () => {
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const events = new TaskEvents(conn.js, conn.jsm, conn.eventsDirect);
    const task = queuedTaskRecord("3c8e5d6b-4f70-4b92-9dce-3f4a5b6c7d8e", "unanswered-tombstone", { nodeNum: 3, vehicleNum: 1 });
    interceptRequests(conn, flowSubject(flowKey(task.owner)), () => Promise.reject(new errors.TimeoutError()));
    // The tombstone's first two writes go unanswered, as while a cluster restarts.
    const tombstoneWrites = interceptRequests(conn, `$KV.${NAMES.taskBucket}.${task.id}`, (real, call) =>
      call <= 2 ? Promise.reject(new errors.TimeoutError()) : real(),
    );
    const outcome = { uncertain: false };
    const room = await queue.roomFor(task.owner, PLAN);
    const logged = (record: TaskRecord) => events.publishQueued(record.id, { queued: true }, record);
    const refused = await commitMessage(queue, task, queue.commitMessage(task, BODY, room, logged), quietLog, outcome).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused, "the submit is refused").to.be.instanceOf(Error);
    expect(tombstoneWrites(), "the tombstone was asked for until it was written").to.equal(3);
    expect(outcome.uncertain, "the refusal is certain").to.equal(false);
    expect((await queue.store.read(task.id)).kind).to.equal("abandoned");
  });
});

describe("a submit's queued event written ahead of its last checks", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await nats?.stop();
  });

  it("leaves nothing to poll or run when the queued event went ahead of a check that then refused", async () => {
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const events = new TaskEvents(conn.js, conn.jsm, conn.eventsDirect);
    const task = queuedTaskRecord("4d9f6e7c-5a81-4ca3-8edf-4a5b6c7d8e9f", "refused-ahead", { nodeNum: 3, vehicleNum: 1 });
    const room = await queue.roomFor(task.owner, PLAN);
    const logged = (record: TaskRecord) => events.publishQueued(record.id, { queued: true }, record);
    const prepared = queue.prepareMessage(task, BODY, room, logged);
    const { queuedSeq } = await prepared;
    expect((await events.last(task.id))?.seq, "the event is stored before any commit").to.equal(queuedSeq);
    expect((await queue.store.get(task.id))?.state, "found through its event while the checks run").to.equal("queued");
    // A later check refuses (the rate used up by another API instance, say): the submit undoes it.
    await undoWrites(queue, task.id, prepared);
    expect(await queue.store.get(task.id), "a poll of the refused submit's id finds nothing").to.equal(null);
    expect((await queue.store.read(task.id)).kind, "and no worker could admit it").to.equal("abandoned");
    expect(await storedOnFlow(conn, task.owner), "no message was published").to.equal(0);
  });

  it("publishes the message after an event written ahead, carrying that event's sequence", async () => {
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const events = new TaskEvents(conn.js, conn.jsm, conn.eventsDirect);
    const task = queuedTaskRecord("5eaf7f8d-6b92-4db4-9fe0-5b6c7d8e9fa0", "accepted-ahead", { nodeNum: 3, vehicleNum: 1 });
    const room = await queue.roomFor(task.owner, PLAN);
    const logged = (record: TaskRecord) => events.publishQueued(record.id, { queued: true }, record);
    const prepared = queue.prepareMessage(task, BODY, room, logged);
    await commitMessage(queue, task, queue.publishCommitted(task, BODY, room, prepared), quietLog, { uncertain: false });
    const stored = await conn.jsm.streams.getMessage(NAMES.taskStream, { last_by_subj: flowSubject(flowKey(task.owner)) });
    const message = stored ? decodeTaskMessage(stored.data) : null;
    expect(message?.layout === "committed" ? message.queuedSeq : null).to.equal((await prepared).queuedSeq);
    expect(message?.layout === "committed" ? message.record : null, "the record the event carries").to.deep.equal(
      await events.queuedRecord(task.id),
    );
  });
  it("stores the history entry before the message and says so in it; a refused submit's entry is removed", async () => {
    const conn = await nats.connect();
    const queue = new TaskQueue(conn);
    const events = new TaskEvents(conn.js, conn.jsm, conn.eventsDirect);
    const history = new HistoryStore(conn.history, conn.requests, conn.requestBodies);
    const logged = (record: TaskRecord) => events.publishQueued(record.id, { queued: true }, record);
    const accepted = queuedTaskRecord("6fb08a9e-7ca3-4ec5-8af1-6c7d8e9fa0b1", "entry-ahead", { nodeNum: 3, vehicleNum: 1 });
    const room = await queue.roomFor(accepted.owner, PLAN);
    const prepared = queue.prepareMessage(accepted, BODY, room, logged, historyEntryOf(history));
    expect((await prepared).historyEntry).to.equal(true);
    expect((await history.find(accepted.owner, accepted.id))?.state, "listed before the commit").to.equal("queued");
    await commitMessage(queue, accepted, queue.publishCommitted(accepted, BODY, room, prepared), quietLog, { uncertain: false });
    const stored = await conn.jsm.streams.getMessage(NAMES.taskStream, { last_by_subj: flowSubject(flowKey(accepted.owner)) });
    const message = stored ? decodeTaskMessage(stored.data) : null;
    expect(message?.layout === "committed" && message.historyEntry, "the worker is told the entry exists").to.equal(true);

    // An entry that goes unanswered (its stream failing over) does not hold the submit: no mark.
    const unanswered = queuedTaskRecord("81d2acb0-9ec5-4ae7-8c13-8e9fa0b1c2d3", "entry-ahead", { nodeNum: 3, vehicleNum: 1 });
    const withoutEntry = await queue.prepareMessage(unanswered, BODY, room, logged, () => new Promise<boolean>(() => undefined));
    expect(withoutEntry.historyEntry, "the message goes without the mark").to.equal(false);

    const refused = queuedTaskRecord("70c19baf-8db4-4fd6-9b02-7d8e9fa0b1c2", "entry-ahead", { nodeNum: 3, vehicleNum: 1 });
    const undone = queue.prepareMessage(refused, BODY, room, logged, historyEntryOf(history));
    await undoWrites(queue, refused.id, undone, () => history.forget(refused));
    expect(await history.find(refused.owner, refused.id), "a refused submit leaves no history entry").to.equal(null);
  });
});
