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
