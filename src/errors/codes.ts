/**
 * The catalogue of machine-readable error codes: one place maps each code to its HTTP status.
 * The OpenAPI document's `ErrorCode` enum must list exactly these (a test checks both directions).
 */
export const ERROR_STATUS = {
  malformed_json: 400,
  plan_limit_exceeded: 400,
  missing_credentials: 401,
  invalid_credentials: 401,
  invalid_proxy_secret: 401,
  api_access_not_in_plan: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  task_finished: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limit_exceeded: 429,
  monthly_quota_exceeded: 429,
  service_busy: 429,
  internal_error: 500,
  service_unavailable: 503,
  no_feasible_solution: 200,
  strategy_declined: 200,
  task_failed: 200,
  idempotency_key_in_use: 409,
  task_not_finished: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The exact English texts the spec spells out (section 7). */
export const MESSAGES = {
  missingCredentials: "missing user-name or key header",
  invalidCredentials: "invalid username or API key (or expired/revoked)",
  invalidProxySecret: "invalid proxy secret",
  validationFailed: "Validation failed",
  forbiddenResult: "no permission to access this request result",
  notFound: "request id not found or expired",
  cancelledByCaller: "cancelled by the caller",
  timeLimitNotPositiveInteger: "time_limit_seconds must be a positive integer",
} as const;

export function planAccessMessage(plan: string): string {
  return `Your plan '${plan}' does not support API access. Please upgrade your plan`;
}

export function planLimitMessage(what: "Node" | "Vehicle", count: number, limit: number): string {
  return `${what} count (${count}) exceeds plan limit (${limit}). Please upgrade your plan`;
}

export function depotDemandMessage(node: number, value: number): string {
  return `Depot/start/end node ${node} demand must be 0 (got ${value})`;
}
