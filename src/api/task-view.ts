import type { components } from "../../generated/api.js";
import type { TaskRecord } from "../queue/task-store.js";
import type { Envelope } from "./envelope.js";

/**
 * The poll body of a task in any state. The worker uses the same function for the callback body
 * and the history download, so the three can never disagree.
 */
type Schemas = components["schemas"];

export function taskEnvelope(task: TaskRecord, queueDepth: number | null): Envelope {
  const body = stateEnvelope(task, queueDepth);
  // Extension: when the result expires (records written before it existed have no stamp).
  if (task.expiresAt) body.expires_at = task.expiresAt;
  return body;
}

function stateEnvelope(task: TaskRecord, queueDepth: number | null): Envelope {
  switch (task.state) {
    case "queued":
      return {
        success: true,
        request_id: task.id,
        error: null,
        result: { status: "processing", phase: "queued", queue_depth: queueDepth },
      } satisfies Schemas["PollProcessing"];
    case "solving":
      return {
        success: true,
        request_id: task.id,
        error: null,
        result: { status: "processing", phase: "solving", queue_depth: null },
      } satisfies Schemas["PollProcessing"];
    case "solved":
      if (task.result) return { success: true, request_id: task.id, error: null, result: task.result } satisfies Schemas["PollSolved"];
      return { success: true, request_id: task.id, error: null, result: null };
    case "failed":
      return {
        success: false,
        request_id: task.id,
        error: task.error ?? "The task failed",
        result: null,
        code: task.code ?? "task_failed",
        diagnostics: task.diagnostics ?? [],
        ...(task.infeasibilities ? { infeasibilities: task.infeasibilities } : {}),
      } satisfies Schemas["PollFailed"];
  }
}
