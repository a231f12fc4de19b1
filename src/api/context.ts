import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import type { Admission } from "../limits/admission.js";
import type { ApiMetrics } from "../metrics/registry.js";
import type { ProgressStore } from "../queue/progress-store.js";
import type { TaskEvents } from "../queue/task-events.js";
import type { TaskQueue } from "../queue/task-queue.js";
import type { TaskRecord } from "../queue/task-store.js";
import type { EventStreamRegistry } from "./event-stream.js";
import type { ResultWaits } from "./result-waits.js";
import type { AccountStore } from "../store/accounts.js";
import type { HistoryStore } from "../store/history.js";
import type { IdempotencyStore } from "../store/idempotency.js";

/** Everything a handler may use; built once per API process. */
export interface ApiServices {
  config: Readonly<Config>;
  log: Logger;
  queue: TaskQueue;
  accounts: AccountStore;
  admission: Admission;
  history: HistoryStore;
  idempotency: IdempotencyStore;
  metrics: ApiMetrics;
  natsConnected(): boolean;
  /** Task event log, progress of solving tasks, open event streams, cancel signal. */
  events: TaskEvents;
  progress: ProgressStore;
  eventStreams: EventStreamRegistry;
  /** Polls waiting for their task to finish (`wait_seconds`). */
  resultWaits: ResultWaits;
  /** Tells the worker solving `taskId`, wherever it runs, to stop (a NATS message). */
  signalCancel(taskId: string): void;
  /** Tells the worker that may hold a new task's message that its record now exists (a NATS message, with a small body). */
  announceAdmitted(record: TaskRecord, revision: number, body: string | null): void;
  /** Submit-time check of a callback URL; null when acceptable. */
  checkCallbackUrl(url: string): string | null;
}

/** What the middleware records on ctx.state for later middleware and the logs. */
export interface RequestState {
  httpRequestId: string;
  routeTemplate: string;
  /** The OpenAPI operation that answered, when one did. */
  operationId?: string;
  log: Logger;
}
