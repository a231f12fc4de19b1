import { MESSAGES } from "../errors/codes.js";
import type { TaskRecord } from "../queue/task-store.js";
import type { SolveReply } from "./solve-thread.js";

/**
 * The task's final record from the solver's reply. A cancelled solve keeps its best feasible
 * solution, marked as stopped by the caller, or fails with the cancel as its reason.
 */
export function finalRecord(solving: TaskRecord, reply: SolveReply, cancelled: boolean): TaskRecord {
  if (reply.ok && reply.outcome.status === "solved") {
    return { ...solving, state: "solved", result: cancelled ? { ...reply.outcome.result, stopped: "cancelled" } : reply.outcome.result };
  }
  if (cancelled) {
    const diagnostics = reply.ok && reply.outcome.status === "failed" ? reply.outcome.diagnostics : [];
    return { ...solving, state: "failed", code: "cancelled", error: MESSAGES.cancelledByCaller, diagnostics };
  }
  if (!reply.ok) return { ...solving, state: "failed", code: "task_failed", error: `The solver failed: ${reply.error}`, diagnostics: [] };
  const failure = reply.outcome as Extract<typeof reply.outcome, { status: "failed" }>;
  return {
    ...solving,
    state: "failed",
    code: failure.code,
    error: failure.error,
    diagnostics: failure.diagnostics,
    ...(failure.infeasibilities.length > 0 ? { infeasibilities: failure.infeasibilities } : {}),
  };
}
