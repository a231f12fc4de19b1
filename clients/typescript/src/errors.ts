import type { ErrorBody, ErrorStatus } from "./types.js";

/**
 * An error answer of the API, typed by its HTTP status: `status` is a literal, so checking it
 * narrows `body` (and `body.code`) to the envelope the document gives that status.
 */
export class ApiError<S extends ErrorStatus = ErrorStatus> extends Error {
  override readonly name = "VrpApiError";
  constructor(
    readonly status: S,
    readonly body: ErrorBody<S>,
    /** Seconds from the `Retry-After` header (429, 503), or null. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(`HTTP ${status} ${(body as { code?: string }).code ?? ""}: ${(body as { error?: string }).error ?? ""}`.trim());
  }
}

/** Any error answer: a union over the statuses, so `if (err.status === 429)` narrows it. */
export type VrpApiError = { [S in ErrorStatus]: ApiError<S> }[ErrorStatus];

export function isApiError(err: unknown): err is VrpApiError {
  return err instanceof ApiError;
}

/** `waitForResult` gave up: the task was still processing when the total timeout ran out. */
export class WaitTimeoutError extends Error {
  override readonly name = "VrpWaitTimeoutError";
  constructor(
    readonly requestId: string,
    readonly timeoutMs: number,
  ) {
    super(`task ${requestId} was not finished after ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** The service answered something the document does not describe (e.g. a proxy's HTML page). */
export class UnexpectedResponseError extends Error {
  override readonly name = "VrpUnexpectedResponseError";
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(`unexpected HTTP ${status} answer: ${text.slice(0, 200)}`);
  }
}
