import type { ApiError } from "../errors/api-error.js";
import type { Infeasibility } from "../problem/diagnostics.js";

/** The spec's response envelope (section 2.2). */
export interface Envelope {
  success: boolean;
  request_id: string;
  error: string | null;
  result: unknown;
  code?: string;
  retry_after_seconds?: number;
  detail?: { loc: string[]; msg: string; type: string }[];
  diagnostics?: string[];
  infeasibilities?: Infeasibility[];
  /** Extension: when the task's result expires (acknowledgement and poll bodies). */
  expires_at?: string;
}

export function successEnvelope(requestId: string, result: unknown): Envelope {
  return { success: true, request_id: requestId, error: null, result };
}

export function errorEnvelope(requestId: string, err: ApiError): Envelope {
  const body: Envelope = { success: false, request_id: requestId, error: err.message, result: null, code: err.code };
  if (err.extra.retryAfterSeconds !== undefined) body.retry_after_seconds = err.extra.retryAfterSeconds;
  if (err.extra.detail !== undefined) body.detail = err.extra.detail;
  return body;
}

/**
 * The acknowledgement of an accepted submit. A function of the task alone, so an Idempotency-Key
 * repeat that finds the task admitted (its first answer lost in a fault) answers the same body.
 */
export function acceptedAck(task: { id: string; expiresAt?: string }): Envelope {
  const ack = successEnvelope(task.id, {
    status: "accepted",
    phase: "queued",
    message: `Task accepted. Poll GET /api/v1/solve/result/${task.id} (waits of 2 s, 3 s, then 5 s) or wait for the callback.`,
  });
  if (task.expiresAt) ack.expires_at = task.expiresAt;
  return ack;
}
