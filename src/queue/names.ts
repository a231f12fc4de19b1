/** Every NATS stream, subject, consumer and bucket name lives here and nowhere else. */
export const NAMES = {
  taskStream: "VRP_TASKS",
  taskSubject: "vrp.tasks.solve",
  taskConsumer: "solvers",
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
} as const;
