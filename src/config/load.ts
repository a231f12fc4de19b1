import { join } from "node:path";
import { REPO_ROOT } from "../infra/repo-root.js";
import { trustedNetworks } from "../callbacks/address-policy.js";
import { loadPlans, type PlanCatalogue } from "./plans.js";
import { strategyModulesFromEnv } from "./strategy-modules.js";

/** SOLVER_MAX_HEAP_MB's default: the most heap one solve may take, for the largest requests a plan admits. */
export const DEFAULT_SOLVER_MAX_HEAP_MB = 4096;

export interface Config {
  host: string;
  port: number;
  natsServers: string[];
  /** JetStream replicas for streams and buckets: 1 on a single server, 3 on a cluster. */
  natsReplicas: number;
  /**
   * How soon a client leaves a NATS node that hangs: a ping every `pingIntervalMs`,
   * and the connection is dropped and re-made to another node once `maxPingsOut` go unanswered.
   * `requestTimeoutMs` bounds each JetStream request (a KV read or write, a publish).
   */
  nats: { pingIntervalMs: number; maxPingsOut: number; requestTimeoutMs: number };
  resultTtlSeconds: number;
  historyRetentionDays: number;
  busyQueueThreshold: number;
  maxBodyBytes: number;
  plans: PlanCatalogue;
  marketplace: { secretHeader: string; userHeader: string; secret: string | null };
  callbacks: { allowLoopback: boolean; trustedNetworks: string[]; timeoutMs: number };
  /** Strategy modules loaded beside the built-in strategies (STRATEGY_MODULES; see docs/strategies.md). */
  strategyModules: string[];
  worker: {
    /** Replaces the default size-based strategy table (JSON array of selection rules). */
    strategySelection: unknown[] | null;
    ackWaitMs: number;
    maxDeliveries: number;
    shutdownGraceMs: number;
    metricsPort: number;
    /**
     * The largest V8 heap limit of the solver thread in MB: each job gets a limit scaled to its
     * size up to this (src/worker/solver-heap.ts); a solve above it fails cleanly, the worker lives on.
     */
    solverMaxHeapMb: number;
    /** How long a task message waits for its record before its admission is given up. */
    admissionDeadlineMs: number;
  };
  /**
   * The API's graceful stop: readiness answers 503 for `delayMs` while requests are still served
   * (a balancer takes the instance out first), then new connections are refused and open requests
   * get up to `timeoutMs` to finish before their connections are closed.
   */
  apiDrain: { delayMs: number; timeoutMs: number };
  /**
   * Where a submit commits (TASK_COMMIT, docs/design/task-message.md; `message` unless set): `message`, one work-queue
   * message with the record and a small body; `record`, the older layout, the record's `create`
   * after the body and message (kept for a rolling upgrade from it: every worker must read the new
   * layout before any API writes it).
   */
  taskCommit: "message" | "record";
  /** Seconds between keep-alive comments on an idle event stream. */
  eventsKeepAliveSeconds: number;
  /** Polls one API instance holds waiting at once (`wait_seconds`); beyond it a poll answers at once. */
  resultWaitCapacity: number;
  logLevel: "debug" | "info" | "warn" | "error";
  /** Validate every response against the OpenAPI document and log mismatches (tests, staging). */
  selfCheckResponses: boolean;
}

const DEFAULT_PLANS_FILE = join(REPO_ROOT, "config/plans.json");

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`environment variable ${name} must be a number, got '${raw}'`);
  return value;
}

function boolEnv(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  return raw === "1" || raw.toLowerCase() === "true";
}

function taskCommitEnv(env: NodeJS.ProcessEnv): Config["taskCommit"] {
  const raw = env.TASK_COMMIT ?? "message";
  if (raw !== "message" && raw !== "record") throw new Error(`TASK_COMMIT must be "message" or "record", not "${raw}"`);
  return raw;
}

/** CALLBACK_ALLOWED_NETWORKS: comma-separated CIDR blocks, checked here so a typo stops the start. */
function trustedNetworksEnv(env: NodeJS.ProcessEnv): string[] {
  const cidrs = (env.CALLBACK_ALLOWED_NETWORKS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    trustedNetworks(cidrs);
  } catch (error) {
    throw new Error(`environment variable CALLBACK_ALLOWED_NETWORKS: ${(error as Error).message}`);
  }
  return cidrs;
}

/** One frozen, typed configuration from the environment (and the plans file it names). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const level = (env.LOG_LEVEL ?? "info") as Config["logLevel"];
  if (!["debug", "info", "warn", "error"].includes(level)) throw new Error(`LOG_LEVEL must be debug, info, warn or error`);
  return Object.freeze({
    host: env.HOST ?? "127.0.0.1",
    port: intEnv(env, "PORT", 8080),
    natsServers: (env.NATS_URL ?? "nats://127.0.0.1:4222")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    natsReplicas: intEnv(env, "NATS_REPLICAS", 1),
    nats: {
      pingIntervalMs: intEnv(env, "NATS_PING_INTERVAL_MS", 1000),
      maxPingsOut: intEnv(env, "NATS_MAX_PINGS_OUT", 2),
      requestTimeoutMs: intEnv(env, "NATS_REQUEST_TIMEOUT_MS", 4000),
    },
    resultTtlSeconds: intEnv(env, "RESULT_TTL_SECONDS", 24 * 3600),
    historyRetentionDays: intEnv(env, "HISTORY_RETENTION_DAYS", 90),
    busyQueueThreshold: intEnv(env, "BUSY_QUEUE_THRESHOLD", 1000),
    maxBodyBytes: intEnv(env, "MAX_BODY_BYTES", 64 * 1024 * 1024),
    plans: loadPlans(env.PLANS_FILE ?? DEFAULT_PLANS_FILE),
    marketplace: {
      secretHeader: (env.MARKETPLACE_SECRET_HEADER ?? "X-Marketplace-Proxy-Secret").toLowerCase(),
      userHeader: (env.MARKETPLACE_USER_HEADER ?? "X-Marketplace-User").toLowerCase(),
      secret: env.MARKETPLACE_PROXY_SECRET || null,
    },
    callbacks: {
      allowLoopback: boolEnv(env, "CALLBACK_ALLOW_LOOPBACK", false),
      trustedNetworks: trustedNetworksEnv(env),
      timeoutMs: intEnv(env, "CALLBACK_TIMEOUT_MS", 10_000),
    },
    strategyModules: strategyModulesFromEnv(env),
    worker: {
      strategySelection: env.STRATEGY_SELECTION ? (JSON.parse(env.STRATEGY_SELECTION) as unknown[]) : null,
      ackWaitMs: intEnv(env, "WORKER_ACK_WAIT_MS", 30_000),
      maxDeliveries: intEnv(env, "WORKER_MAX_DELIVERIES", 3),
      shutdownGraceMs: intEnv(env, "WORKER_SHUTDOWN_GRACE_MS", 10_000),
      metricsPort: intEnv(env, "WORKER_METRICS_PORT", 0),
      solverMaxHeapMb: intEnv(env, "SOLVER_MAX_HEAP_MB", DEFAULT_SOLVER_MAX_HEAP_MB),
      admissionDeadlineMs: intEnv(env, "WORKER_ADMISSION_DEADLINE_MS", 30_000),
    },
    apiDrain: {
      delayMs: intEnv(env, "API_DRAIN_DELAY_MS", 0),
      timeoutMs: intEnv(env, "API_DRAIN_TIMEOUT_MS", 30_000),
    },
    taskCommit: taskCommitEnv(env),
    eventsKeepAliveSeconds: intEnv(env, "EVENTS_KEEPALIVE_SECONDS", 15),
    resultWaitCapacity: intEnv(env, "RESULT_WAIT_CAPACITY", 2_000),
    logLevel: level,
    selfCheckResponses: boolEnv(env, "SELF_CHECK_RESPONSES", false),
  });
}
