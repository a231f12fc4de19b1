import { expect } from "chai";
import { DeliverPolicy } from "@nats-io/jetstream";
import { NAMES } from "../../src/queue/names.js";
import { TaskStore } from "../../src/queue/task-store.js";
import type { StoredTaskEvent } from "../../src/queue/task-events.js";
import { decodeTaskMessage } from "../../src/queue/task-message.js";
import { HistoryStore } from "../../src/store/history.js";
import type { FaultCluster } from "./cluster.js";
import type { CallbackReceiver, LoadReport } from "./load.js";

const decoder = new TextDecoder();

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The checker is a NATS client too: right after a fault heals, JetStream can answer "temporarily
 * unavailable" for a few seconds (a node that was cut off comes back with a higher Raft term and
 * the groups elect again). Its reads are retried for up to a minute, as the services' own are.
 */
export async function inspect<T>(what: string, read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    try {
      // An attempt that hangs (a consumer created on a leader that has just stepped down) is
      // given up and made again.
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer within 20 s")), 20_000)));
      return await Promise.race([read(), timeout]);
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Polls every accepted task through the running API instances until it is solved; returns those that are not. */
async function awaitSolved(cluster: FaultCluster, ids: readonly string[], timeoutMs: number): Promise<string[]> {
  const pending = new Set(ids);
  const deadline = Date.now() + timeoutMs;
  while (pending.size > 0 && Date.now() < deadline) {
    for (const id of [...pending]) {
      const url = cluster.apiUrls()[0]!;
      const res = await fetch(`${url}/api/v1/solve/result/${id}`, { headers: cluster.headers, signal: AbortSignal.timeout(10_000) }).catch(
        () => null,
      );
      if (!res || res.status !== 200) continue;
      const json = (await res.json()) as { success: boolean; result: { status?: string } | null };
      expect(json.success, `task ${id} failed: ${JSON.stringify(json)}`).to.equal(true);
      if (json.result?.status === "solved") pending.delete(id);
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
  return [...pending];
}

/**
 * The suite's promise, checked after a scenario has recovered: every accepted task solved, one
 * callback each and none for anything not accepted, every 5xx a 503 with Retry-After, the work
 * queue empty, no task record that is not an accepted, solved task, the planning history listing
 * exactly the accepted tasks as solved, and each task's event log starting with `queued` and
 * holding exactly one final event.
 */
export async function checkNothingLost(
  cluster: FaultCluster,
  report: LoadReport,
  acceptedSoFar: Set<string>,
  callbacks: CallbackReceiver,
  /** Callbacks allowed to arrive twice: only where workers were SIGKILLed (see the suite). */
  repeatsAllowed = 0,
): Promise<string> {
  for (const e of report.serverErrors) {
    expect(e.status, `a 5xx other than 503\n${cluster.unhandledErrors()}`).to.equal(503);
    expect(Number(e.retryAfter), "a 503 without Retry-After").to.be.greaterThan(0);
  }
  expect(report.givenUp, "submissions still refused when the client gave up").to.equal(0);
  expect(new Set(report.accepted).size, "one request_id per submission").to.equal(report.accepted.length);
  for (const id of report.accepted) acceptedSoFar.add(id);

  const unsolved = await awaitSolved(cluster, report.accepted, 240_000);
  expect(unsolved, "accepted tasks never solved").to.deep.equal([]);
  await until("a callback for every accepted task", async () => report.accepted.every((id) => (callbacks.hits.get(id) ?? 0) >= 1), 90_000);

  // A work-queue stream keeps a message until it is acknowledged, whichever account's flow it is in.
  const consumerDrained = async () => {
    const info = await cluster.nats.jsm.streams.info(NAMES.taskStream).catch(() => null);
    return info !== null && info.state.messages === 0;
  };
  await until("the work queue to drain (admissions that never completed dropped)", consumerDrained, 90_000).catch(async (err: unknown) => {
    throw new Error(`${err instanceof Error ? err.message : String(err)}: ${await queueDiagnosis(cluster)}`);
  });
  await new Promise((r) => setTimeout(r, 2000));
  const twice = report.accepted.filter((id) => callbacks.hits.get(id) !== 1);
  const newIds = report.accepted.filter((id) => callbacks.webhookIds.get(id)?.size !== 1);
  expect(newIds, "a task's repeated callback with another webhook-id (a partner could not tell it is a repeat)").to.deep.equal([]);
  expect(twice.length, `tasks with more than one callback: ${twice.join(", ")}`).to.be.at.most(repeatsAllowed);
  // A key-less submit whose answer was lost may have been accepted: at most one task each, solved
  // and called back once like any other; every other callback must be for an accepted task.
  const unexpected = [...callbacks.hits.keys()].filter((id) => !acceptedSoFar.has(id));
  expect(unexpected.length, `callbacks for submits that were not accepted: ${unexpected.join(", ")}`).to.be.at.most(report.ambiguous);
  expect(
    unexpected.filter((id) => callbacks.hits.get(id) !== 1),
    "a lost key-less submit's task called back more than once",
  ).to.deep.equal([]);
  for (const id of unexpected) acceptedSoFar.add(id);

  // No task record other than the accepted tasks, all solved: nothing stranded by a refused submit.
  const store = new TaskStore(cluster.nats.tasks);
  const stray = await inspect("reading the task records", async () => {
    const found: string[] = [];
    for await (const key of await cluster.nats.tasks.keys()) {
      const task = await store.read(key);
      if (task.kind !== "live") continue;
      if (!acceptedSoFar.has(key) || task.record.state !== "solved") found.push(`${key}:${task.record.state}`);
    }
    return found;
  });
  expect(stray, "task records that are not accepted, solved tasks").to.deep.equal([]);

  const history = await inspect("reading the history", () =>
    new HistoryStore(cluster.nats.history, cluster.nats.requests, cluster.nats.requestBodies).list("faults", 100_000, null),
  );
  const listed = new Map(history.items.map((h) => [h.request_id, h.state]));
  const missing = [...acceptedSoFar].filter((id) => listed.get(id) !== "solved");
  expect(missing, "accepted tasks not listed as solved in the history").to.deep.equal([]);
  expect(
    [...listed.keys()].filter((id) => !acceptedSoFar.has(id)),
    "history entries of tasks never accepted",
  ).to.deep.equal([]);

  const events = await inspect("reading the event logs", () => eventCounts(cluster));
  const badLogs = report.accepted.filter((id) => {
    const log = events.get(id);
    return !log || log.first !== "queued" || log.finals !== 1;
  });
  expect(
    badLogs.map((id) => `${id}:${JSON.stringify(events.get(id) ?? null)}`),
    "event logs without `queued` first or without exactly one final event",
  ).to.deep.equal([]);

  const counts = Object.fromEntries([...report.answers].sort((a, b) => a[0] - b[0]));
  const keyless =
    `${report.keyless} of them without an ` +
    `Idempotency-Key${report.ambiguous ? `, ${report.ambiguous} key-less answers lost (${unexpected.length} of those ran)` : ""}`;
  return (
    `${report.accepted.length} accepted (${keyless}) in ${report.seconds.toFixed(1)} ` +
    `s, answers by status ${JSON.stringify(counts)} (0: connection broken), one ` +
    `callback each${twice.length ? ` except ${twice.length} sent twice (same webhook-id)` : ""}, ` +
    `${callbacks.hits.size} tasks called back in all`
  );
}

/**
 * What is left in the work queue, for a failure message: the stream's state and leader, each flow
 * consumer's counts and ack floor (a message at or below its consumer's ack floor was acknowledged
 * as far as the consumer knows), and the first messages left with their subject, sequence, the
 * consumer whose filter holds them and their task's state.
 */
async function queueDiagnosis(cluster: FaultCluster): Promise<string> {
  const stream = await cluster.nats.jsm.streams.info(NAMES.taskStream).catch(() => null);
  const consumers = new Map<string, { name: string; ackFloor: number; line: string }>();
  try {
    for await (const c of cluster.nats.jsm.consumers.list(NAMES.taskStream)) {
      const line =
        `${c.name}{pending ${c.num_pending}, ack_pending ${c.num_ack_pending}, redelivered ${c.num_redelivered}, ` +
        `delivered ${c.delivered.stream_seq}, ack_floor ${c.ack_floor.stream_seq}, leader ${c.cluster?.leader ?? "?"}}`;
      consumers.set(c.config.filter_subject ?? "", { name: c.name, ackFloor: c.ack_floor.stream_seq, line });
    }
  } catch (err) {
    consumers.set("", { name: "", ackFloor: 0, line: `consumers not listed: ${String(err)}` });
  }
  const left: string[] = [];
  const store = new TaskStore(cluster.nats.tasks);
  for (let seq = stream?.state.first_seq ?? 1; stream && seq <= stream.state.last_seq && left.length < 10; seq++) {
    const m = await cluster.nats.jsm.streams.getMessage(NAMES.taskStream, { seq }).catch(() => null);
    if (!m) continue;
    const message = decodeTaskMessage(m.data);
    const id = message?.layout === "committed" ? message.record.id : (message?.taskId ?? "undecodable");
    const found = await store.read(id).catch(() => null);
    const state =
      found === null
        ? "unread"
        : found.kind === "live"
          ? `${found.record.state},attempts=${found.record.solveAttempts},callback=${JSON.stringify(found.record.callback ?? null)}`
          : found.kind;
    const consumer = consumers.get(m.subject);
    const owner = consumer ? `${consumer.name}${seq <= consumer.ackFloor ? " (acked)" : ""}` : "no consumer";
    left.push(`#${seq} ${m.subject} ${id}:${state} ${owner}`);
  }
  const replicas = stream?.cluster?.replicas?.map((r) => `${r.name}:${r.current ? "current" : "behind"}`) ?? [];
  const streamState = stream
    ? `${stream.state.messages} messages, seq ${stream.state.first_seq}..${stream.state.last_seq}, ` +
      `leader ${stream.cluster?.leader ?? "?"}, replicas ${replicas.join(",")}`
    : "unread";
  return `stream ${streamState}; consumers ${[...consumers.values()].map((c) => c.line).join(" ")}; first left: ${left.join("; ")}`;
}

/** Per task: its first event and how many final events its log holds (one ordered read of the stream). */
export async function eventCounts(cluster: FaultCluster): Promise<Map<string, { first: string; finals: number }>> {
  const out = new Map<string, { first: string; finals: number }>();
  const info = await cluster.nats.jsm.streams.info(NAMES.eventStream);
  const last = info.state.last_seq;
  if (info.state.messages === 0) return out;
  const consumer = await cluster.nats.js.consumers.get(NAMES.eventStream, { deliver_policy: DeliverPolicy.All });
  const messages = await consumer.consume({ max_messages: 512 });
  for await (const m of messages) {
    const id = m.subject.slice(NAMES.eventSubjectPrefix.length + 1);
    const event = (JSON.parse(decoder.decode(m.data)) as StoredTaskEvent).event;
    const entry = out.get(id) ?? { first: event, finals: 0 };
    if (event === "solved" || event === "failed") entry.finals++;
    out.set(id, entry);
    if (m.seq >= last) break;
  }
  await messages.close().catch(() => undefined);
  return out;
}
