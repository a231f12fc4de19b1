/**
 * Type test, checked by `tsc` in the build (never run): errors narrow by HTTP status. Each
 * `@ts-expect-error` line must fail to compile, or the build fails ("unused directive").
 */
import { isApiError, type VrpApiError } from "../src/index.js";

export function describeError(err: unknown): string {
  if (!isApiError(err)) return "not an API error";
  const e: VrpApiError = err;
  switch (e.status) {
    case 429: {
      const code: "rate_limit_exceeded" | "monthly_quota_exceeded" | "service_busy" = e.body.code;
      const seconds: number = e.body.retry_after_seconds;
      // @ts-expect-error a 429 never carries validation_failed
      const wrong: typeof e.body.code = "validation_failed";
      return `${code} ${seconds} ${wrong}`;
    }
    case 422: {
      const code: "validation_failed" = e.body.code;
      // `detail` is required on 422, so no optional chaining is needed.
      return `${code} ${e.body.detail.map((issue) => issue.loc.join(".")).join(", ")}`;
    }
    case 401: {
      // @ts-expect-error a 401 carries no `detail`
      return `${e.body.code} ${e.body.detail}`;
    }
    case 503:
      return `${e.body.code satisfies "service_unavailable"} retry in ${e.body.retry_after_seconds} s`;
    case 404:
      return e.body.code satisfies "not_found";
    default:
      return e.body.code;
  }
}

export function codeOfAnyStatus(e: VrpApiError): string {
  // @ts-expect-error before narrowing, `detail` exists on the 422 envelope only
  return e.body.detail;
}
