import { connect, nanos, type NatsConnection } from "@nats-io/transport-node";
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { Kvm, type KV } from "@nats-io/kv";
import { Objm, type ObjectStore } from "@nats-io/obj";
import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import { NAMES } from "./names.js";
import { coalesceWrites } from "./coalesced-writes.js";
import { shareCancelledError } from "./request-cancel.js";

export interface Nats {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  tasks: KV;
  requests: ObjectStore;
  /** Small request bodies: one KV write instead of the object store's several. */
  requestBodies: KV;
  accounts: KV;
  apiKeys: KV;
  counters: KV;
  history: KV;
  /** Idempotency-Key claims of submits, kept 24 h (IETF draft). */
  idempotency: KV;
  /** The task bucket's actual TTL: a result expires this long after its record's last write. */
  resultTtlMs: number;
  /** Latest progress (and best solution so far) of solving tasks. */
  progress: KV;
  /** The fair scheduler's state (fair-schedule-store.ts). */
  fairShare: KV;
  /**
   * Whether the task event stream answers direct gets (one replica: the only copy is the leader's),
   * which cost the server and the client less than the stream API's message get.
   */
  eventsDirect: boolean;
  /** False while the client is between a disconnect and the next reconnect. */
  isConnected(): boolean;
  close(): Promise<void>;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Whether a direct get, answered by any replica, is certain to read what the stream leader holds:
 * only when there is one replica, the leader's.
 */
export function directReadsAreLeaderReads(replicas: number): boolean {
  return replicas === 1;
}
/** Set-up attempts (a second apart) while JetStream is failing over, before a process gives up. */
const SETUP_ATTEMPTS = 60;

/**
 * Connects (retrying for ever, so a worker started before nats-server simply waits) and makes sure
 * every stream, consumer and bucket exists with the configured replica count. Creating them is
 * idempotent, so any process may be the first to start. With `failFast` (a command-line tool,
 * where a person waits) the first connection is tried once and its failure thrown. With `noEcho`
 * the server does not deliver this connection's own publishes to its own subscriptions (a process
 * that never needs to hear itself: each echo is a socket write by the server and a wake-up here).
 */
export async function connectNats(
  config: Readonly<Config>,
  clientName: string,
  log: Logger,
  options: { failFast?: boolean; noEcho?: boolean } = {},
): Promise<Nats> {
  const nc = await connect({
    servers: config.natsServers,
    name: clientName,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: !options.failFast,
    timeout: 5000,
    // A node that hangs (SIGSTOP, a cut link) keeps its TCP connection open, so only
    // unanswered pings reveal it. The client's default (a ping every 2 minutes) left every request
    // routed through such a node waiting for its full timeout; with these the client drops the
    // connection after about pingInterval x (maxPingOut + 1) and re-connects to another node.
    pingInterval: config.nats.pingIntervalMs,
    maxPingOut: config.nats.maxPingsOut,
    // Without this every request (each KV read or write, each publish) builds an Error up front
    // just to have the caller's stack should it fail: a large share of the API's CPU under load.
    noAsyncTraces: true,
    noEcho: options.noEcho === true,
  });
  if (!coalesceWrites(nc)) log.warn("nats client internals changed: writes are not coalesced");
  if (!shareCancelledError()) log.warn("nats client internals changed: each answered request still builds an error");
  let connected = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect") {
        connected = false;
        log.warn("nats disconnected");
      } else if (s.type === "reconnect") {
        connected = true;
        log.info("nats reconnected");
      }
    }
  })();

  // A process started while the cluster fails over (a worker restarted right after a
  // node died) waits for it rather than exiting on the first timed-out request.
  const setUp = async () => {
    const jsm = await jetstreamManager(nc, { timeout: config.nats.requestTimeoutMs });
    const js = jetstream(nc, { timeout: config.nats.requestTimeoutMs });
    const replicas = config.natsReplicas;
    const oneCopy = directReadsAreLeaderReads(replicas);
    await ensureStream(jsm, {
      name: NAMES.taskStream,
      // Each account's flow has its own subject; the legacy one keeps a store's older tasks running.
      subjects: [NAMES.taskSubject, `${NAMES.flowSubjectPrefix}>`],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      num_replicas: replicas,
      duplicate_window: nanos(2 * 60 * 1000),
    });
    await ensureStream(jsm, {
      name: NAMES.deadLetterStream,
      subjects: [NAMES.deadLetterSubject],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      num_replicas: replicas,
      max_age: nanos(config.historyRetentionDays * DAY_MS),
    });
    await ensureStream(jsm, {
      name: NAMES.eventStream,
      subjects: [`${NAMES.eventSubjectPrefix}.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      num_replicas: replicas,
      max_age: nanos(config.resultTtlSeconds * 1000),
      allow_direct: oneCopy,
    });
    await jsm.consumers.add(NAMES.taskStream, {
      durable_name: NAMES.taskConsumer,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(config.worker.ackWaitMs),
      // Poison tasks are recognised by the worker from the delivery count and failed on purpose, so
      // the server never stops redelivering on its own (on 2.9 such a message would stay stuck).
      max_deliver: -1,
      max_ack_pending: 10_000,
      filter_subject: NAMES.taskSubject,
    });

    const kvm = new Kvm(js);
    const kvOptions = { replicas, storage: StorageType.File, history: 1 } as const;
    // Buckets whose reads decide a task's fate (its record, its request body, its history
    // entry, an Idempotency-Key claim, the admission counters) are read from the stream leader, never
    // from a replica that may lag behind (a direct get, the client's default, is answered by any
    // replica: a node that was frozen answered "no such record" for records that existed). Accounts,
    // keys and progress keep direct gets: a stale answer there is harmless and self-correcting.
    // With one replica the only copy is the leader's, so direct gets (cheaper) read it there too;
    // a bucket created before keeps how it was created (the client follows the stored setting).
    const leaderReads = { ...kvOptions, allow_direct: oneCopy } as const;
    const resultTtlMs = config.resultTtlSeconds * 1000;
    const tasks = await kvm.create(NAMES.taskBucket, { ...leaderReads, ttl: resultTtlMs });
    const accounts = await kvm.create(NAMES.accountBucket, kvOptions);
    const apiKeys = await kvm.create(NAMES.keyBucket, kvOptions);
    // Counters only need to outlive the month they count.
    const counters = await kvm.create(NAMES.counterBucket, { ...leaderReads, ttl: 40 * DAY_MS });
    const history = await kvm.create(NAMES.historyBucket, { ...leaderReads, ttl: config.historyRetentionDays * DAY_MS });
    const requestBodies = await kvm.create(NAMES.requestBodyBucket, {
      ...leaderReads,
      ttl: Math.max(resultTtlMs, config.historyRetentionDays * DAY_MS),
    });
    const idempotency = await kvm.create(NAMES.idempotencyBucket, { ...leaderReads, ttl: DAY_MS });
    // The bucket may have been created by another process with another RESULT_TTL_SECONDS: what
    // counts for expires_at is the TTL the bucket really has.
    const taskTtlMs = (await tasks.status()).ttl || resultTtlMs;
    const progress = await kvm.create(NAMES.progressBucket, { ...kvOptions, ttl: resultTtlMs });
    // Compare-and-set on it decides the order of service: read from the leader.
    const fairShare = await kvm.create(NAMES.fairShareBucket, leaderReads);
    const requests = await new Objm(js).create(NAMES.requestStore, {
      replicas,
      storage: StorageType.File,
      ttl: nanos(Math.max(resultTtlMs, config.historyRetentionDays * DAY_MS)),
    });
    // What the event stream really allows (another process may have set it up): a direct get on a
    // stream without it would go unanswered.
    const eventsDirect = (await jsm.streams.info(NAMES.eventStream)).config.allow_direct === true;
    return {
      jsm,
      js,
      tasks,
      requests,
      requestBodies,
      accounts,
      apiKeys,
      counters,
      history,
      idempotency,
      taskTtlMs,
      progress,
      fairShare,
      eventsDirect,
    };
  };
  let parts: Awaited<ReturnType<typeof setUp>>;
  for (let attempt = 1; ; attempt++) {
    try {
      parts = await setUp();
      break;
    } catch (err) {
      if (options.failFast || attempt >= SETUP_ATTEMPTS || !isTransient(err)) {
        await nc.close().catch(() => undefined);
        throw err;
      }
      log.warn("JetStream not ready; set-up retried", { err, attempt });
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const { taskTtlMs, ...queues } = parts;

  return {
    nc,
    ...queues,
    resultTtlMs: taskTtlMs,
    isConnected: () => connected && !nc.isClosed(),
    close: async () => {
      if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
    },
  };
}

type StreamConfigInput = Parameters<JetStreamManager["streams"]["add"]>[0];

async function ensureStream(jsm: JetStreamManager, cfg: StreamConfigInput & { name: string }): Promise<void> {
  try {
    await jsm.streams.info(cfg.name);
    await jsm.streams.update(cfg.name, cfg);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.streams.add(cfg);
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof Error && /not found/i.test(err.message);
}

/** A failure that passes once the cluster has a leader again. */
function isTransient(err: unknown): boolean {
  const text = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /timeout|temporarily unavailable|no responders|not enabled|offline|no suitable peers|leader|disconnect|connection closed/i.test(
    text,
  );
}
