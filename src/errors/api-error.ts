import { ERROR_STATUS, type ErrorCode } from "./codes.js";

export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

/**
 * An error that is meant to reach the caller: status, code and English text are exposed as the
 * spec's envelope by the error middleware. Anything that is not an ApiError becomes a generic 500.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      detail?: ValidationIssue[];
      retryAfterSeconds?: number;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.status = ERROR_STATUS[code];
  }
}

export function validationError(detail: ValidationIssue[]): ApiError {
  return new ApiError("validation_failed", "Validation failed", { detail });
}
