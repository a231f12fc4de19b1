/** Every NATS stream, subject, consumer and bucket name lives here and nowhere else. */
export const NAMES = {
  taskStream: "VRP_TASKS",
  /** The subject every task went to before tasks had a flow per account; still drained. */
  taskSubject: "vrp.tasks.solve",
  /** One durable consumer of the legacy subject. */
  taskConsumer: "solvers",
  /** An account's flow: subject `vrp.tasks.solve.<owner in hex>`, durable consumer `flow_<owner in hex>`. */
  flowSubjectPrefix: "vrp.tasks.solve.",
  flowConsumerPrefix: "flow_",
  /** Core-NATS notice from a worker that freed a place (a task ended or was handed back). */
  freedSubject: "vrp.tasks.freed",
  /** The fair scheduler's virtual times (one key, updated with compare-and-set). */
  fairShareBucket: "vrp_fair_share",
  deadLetterStream: "VRP_DEAD_LETTERS",
  deadLetterSubject: "vrp.tasks.dead",
  taskBucket: "vrp_tasks",
  requestStore: "vrp_requests",
  requestBodyBucket: "vrp_request_bodies",
  accountBucket: "vrp_accounts",
  keyBucket: "vrp_api_keys",
  counterBucket: "vrp_counters",
  historyBucket: "vrp_history",
  idempotencyBucket: "vrp_idempotency",
  /** Per-task event log (subject `vrp.events.<task id>`), latest progress, cancel requests. */
  eventStream: "VRP_EVENTS",
  eventSubjectPrefix: "vrp.events",
  progressBucket: "vrp_progress",
  cancelSubjectPrefix: "vrp.cancel",
  /** Core NATS notices that a task's admission committed (`vrp.admitted.<task id>`, admission-notice.ts). */
  admittedSubjectPrefix: "vrp.admitted",
  /** Cooperative solves: items a task's worker offers to idle workers (a work queue), one durable consumer. */
  helpStream: "VRP_HELP",
  helpItemSubject: "vrp.help.items",
  helpConsumer: "helpers",
  /** Core NATS: workers that could take an item say so here every HELP_ANNOUNCE_MS. */
  helpAvailableSubject: "vrp.help.available",
  /** Core NATS: answers to a worker's items (`vrp.help.answers.<worker id>`). */
  helpAnswerSubjectPrefix: "vrp.help.answers",
} as const;
