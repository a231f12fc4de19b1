import type { ErrorObject } from "ajv";
import { MESSAGES } from "../../errors/codes.js";
import type { ValidationIssue } from "../../errors/api-error.js";

/** At most this many issues are reported: enough to fix a request, small enough for a ragged 2,000-node matrix. */
export const MAX_ISSUES = 100;

const TYPE_NAMES: Record<string, string> = {
  required: "missing",
  additionalProperties: "extra_forbidden",
  minItems: "too_short",
  maxItems: "too_long",
  minLength: "string_too_short",
  maxLength: "string_too_long",
  enum: "enum",
  const: "literal_error",
  minimum: "greater_than_equal",
  exclusiveMinimum: "greater_than",
  maximum: "less_than_equal",
  exclusiveMaximum: "less_than",
  pattern: "string_pattern_mismatch",
  format: "value_error",
};

function typeName(error: ErrorObject): string {
  if (error.keyword === "type") {
    const expected = String((error.params as { type?: string }).type ?? "value").split(",")[0];
    return `${expected}_type`;
  }
  return TYPE_NAMES[error.keyword] ?? "value_error";
}

function location(error: ErrorObject): string[] {
  const parts = error.instancePath.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (parts[0] === "requestBody") parts[0] = "body";
  if (error.keyword === "required") parts.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === "additionalProperties") parts.push(String((error.params as { additionalProperty: string }).additionalProperty));
  return parts;
}

function message(error: ErrorObject, loc: string[]): string {
  if (loc[1] === "time_limit_seconds" && loc.length === 2) return MESSAGES.timeLimitNotPositiveInteger;
  if (error.keyword === "additionalProperties") return `unknown field '${loc[loc.length - 1]}'`;
  if (error.keyword === "required") return `field required`;
  if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return error.message ?? "invalid value";
}

/**
 * Turns Ajv's errors into the spec's `detail` items, one per location (Ajv may report a location
 * several times, once per failed keyword of a oneOf branch, which helps nobody).
 */
export function ajvIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (error.keyword === "if" || error.keyword === "oneOf" || error.keyword === "anyOf") continue;
    const loc = location(error);
    const key = loc.join("\u0000");
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ loc, msg: message(error, loc), type: typeName(error) });
    if (issues.length >= MAX_ISSUES) break;
  }
  return issues;
}
