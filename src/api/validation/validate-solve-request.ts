import type { OpenAPIBackend } from "openapi-backend";
import type { ValidationIssue } from "../../errors/api-error.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import { ajvIssues } from "./ajv-issues.js";
import { crossFieldIssues, type CallbackUrlCheck } from "./cross-field.js";

/**
 * The whole validation of a solve request, shared by the API and the offline CLI: the OpenAPI
 * schema first, then (only on a well-typed body) the cross-field rules.
 */
export function validateSolveRequest(
  api: OpenAPIBackend,
  body: unknown,
  checkCallbackUrl: CallbackUrlCheck,
): { ok: true; request: SolveRequestInput } | { ok: false; issues: ValidationIssue[] } {
  const schemaCheck = api.validator.validateRequest(
    { method: "post", path: "/api/v1/solve", body, headers: { "content-type": "application/json" } },
    "submitSolve",
  );
  if (!schemaCheck.valid) return { ok: false, issues: ajvIssues(schemaCheck.errors ?? []) };
  const request = body as SolveRequestInput;
  const issues = crossFieldIssues(request, checkCallbackUrl);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, request };
}
