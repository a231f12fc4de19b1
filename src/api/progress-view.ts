import { validationError } from "../errors/api-error.js";
import type { Envelope } from "./envelope.js";
import type { TaskRecord } from "../queue/task-store.js";
import { initialProgress, type ProgressEntry, type SolveProgress } from "../queue/progress-store.js";

/**
 * The poll body of a solving task with its `progress`, and with `progress.best` when
 * asked for and known. Before the worker's first report the progress is that of a fresh start.
 */
export function withProgress(envelope: Envelope, task: TaskRecord, entry: ProgressEntry | null, includeBest: boolean): Envelope {
  const result = envelope.result as Record<string, unknown> | null;
  if (task.state !== "solving" || result === null || typeof result !== "object") return envelope;
  const progress: SolveProgress & { best?: unknown } = { ...(entry?.progress ?? initialProgress(task.timeLimitSeconds, task.strategy)) };
  if (includeBest && entry?.best) progress.best = entry.best;
  return { ...envelope, result: { ...result, progress } };
}

/** The poll's `include` query parameter: absent, or `best`; anything else is a 422. */
export function includeBest(include: string | string[] | undefined): boolean {
  if (include === undefined) return false;
  if (include === "best") return true;
  throw validationError([{ loc: ["query", "include"], msg: "include must be 'best'", type: "value_error" }]);
}
