import type { ErrorObject } from "ajv";
import type { OpenAPIBackend } from "openapi-backend";
import type { ValidationIssue } from "../../errors/api-error.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import { ajvIssues, MAX_ISSUES } from "./ajv-issues.js";
import { strategyNameIssues } from "./strategy-name.js";
import { unsupportedFeatureIssues } from "./strategy-features.js";
import { crossFieldIssues, READ_BY_CROSS_FIELD_RULES, type CallbackUrlCheck } from "./cross-field.js";

/**
 * The whole validation of a solve request, shared by the API and the offline CLI: the OpenAPI
 * schema first, then the cross-field rules, all problems in one answer. The rules run on a body
 * with schema errors too when those errors are only in fields the rules do not read (e.g. a bad
 * `time_limit_seconds` together with a depot demand), never on ill-typed data they depend on.
 */
export function validateSolveRequest(
  api: OpenAPIBackend,
  body: unknown,
  checkCallbackUrl: CallbackUrlCheck,
): { ok: true; request: SolveRequestInput } | { ok: false; issues: ValidationIssue[]; schemaValid: boolean } {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, issues: [notAnObjectIssue(body)], schemaValid: false };
  const schemaErrors = submitSchemaErrors(api, body);
  if (schemaErrors.length > 0) {
    const issues = ajvIssues(schemaErrors, { requestBody: body });
    // A name the schema accepted may still be one this process did not load.
    if (issues.length < MAX_ISSUES && !issues.some((i) => i.loc[1] === "strategy")) {
      issues.push(...strategyNameIssues(body as Record<string, unknown>));
    }
    const rulesCanRun = issues.every((i) => i.loc.length >= 2 && i.loc[0] === "body" && !READ_BY_CROSS_FIELD_RULES.has(i.loc[1]!));
    if (rulesCanRun && issues.length < MAX_ISSUES)
      issues.push(...crossFieldIssues(body as SolveRequestInput, checkCallbackUrl).slice(0, MAX_ISSUES - issues.length));
    return { ok: false, issues, schemaValid: false };
  }
  const request = body as SolveRequestInput;
  const issues = [...strategyNameIssues(body as Record<string, unknown>), ...crossFieldIssues(request, checkCallbackUrl)];
  // Only a request that is valid otherwise is asked whether a strategy can honour it.
  if (issues.length === 0) issues.push(...unsupportedFeatureIssues(request));
  return issues.length > 0 ? { ok: false, issues, schemaValid: true } : { ok: true, request };
}

type CompiledCheck = ((input: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The submit operation's compiled checks (its body's schema, its parameters'), per backend. */
const submitChecks = new WeakMap<OpenAPIBackend, CompiledCheck[]>();

/**
 * The schema errors of a solve request's body: what the library's validateRequest finds for a POST
 * to /api/v1/solve with this body (no path or query parameters, the JSON content type), from the
 * same compiled checks and the same input, without re-parsing that constant request (its path,
 * query, headers and cookies) on every call, which cost several times the checks themselves.
 */
export function submitSchemaErrors(api: OpenAPIBackend, body: object): ErrorObject[] {
  let checks = submitChecks.get(api);
  if (!checks) {
    checks = (api.validator.getRequestValidatorsForOperation("submitSolve") ?? []) as CompiledCheck[];
    submitChecks.set(api, checks);
  }
  const input = { path: {}, query: {}, header: { "content-type": "application/json" }, cookie: {}, requestBody: body };
  const errors: ErrorObject[] = [];
  for (const check of checks) {
    check(input);
    if (check.errors) errors.push(...check.errors);
  }
  return errors;
}

/**
 * Well-formed JSON that is not an object (`5`, `"hello"`, `[]`, `null`, an empty body) is one
 * problem, reported once at ["body"]: listing every missing field of a number helps nobody.
 */
function notAnObjectIssue(body: unknown): ValidationIssue {
  const kind = body === undefined ? "an empty body" : body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
  return { loc: ["body"], msg: `the request body must be a JSON object (the solve request), got ${kind}`, type: "object_type" };
}
