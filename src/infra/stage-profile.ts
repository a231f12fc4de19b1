import { appendFileSync } from "node:fs";

/**
 * Opt-in stage timestamps for the pipeline bench's profile (`npm run bench -- pipeline --profile`):
 * with PIPELINE_PROFILE_FILE set, each call appends one line `{task, stage, at}` (epoch ms with
 * sub-millisecond precision, comparable across the API, worker and bench processes on one
 * machine). Without it a call costs one property check.
 */
const FILE = process.env.PIPELINE_PROFILE_FILE;

export function profileStage(taskId: string, stage: string): void {
  if (!FILE) return;
  appendFileSync(FILE, `${JSON.stringify({ task: taskId, stage, at: performance.timeOrigin + performance.now() })}\n`);
}

/** Marks `stage` once the HTTP response has been handed to the operating system. */
export function profileSent(taskId: string, stage: string, res: { once(event: "finish", listener: () => void): unknown }): void {
  if (FILE) res.once("finish", () => profileStage(taskId, stage));
}
