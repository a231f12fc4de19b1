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
  const parts = error.instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (parts[0] === "requestBody") parts[0] = "body";
  if (error.keyword === "required") parts.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === "additionalProperties") parts.push(String((error.params as { additionalProperty: string }).additionalProperty));
  return parts;
}

/** "must be a number", "must be an integer", ...: Ajv's "must be number" as a sentence. */
const TYPE_PHRASES: Record<string, string> = {
  number: "a number",
  integer: "an integer",
  string: "a string",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

/** What the document's patterns mean, in words (a regular expression helps nobody in a message). */
const PATTERN_PHRASES: Record<string, string> = {
  "^[Hh][Tt][Tt][Pp][Ss]?://": "must be a web address starting with http:// or https://",
  "^[0-9]+$": "must be digits only",
  "^[0-9]{1,19}$": "must be 1 to 19 digits",
  "^[0-9]{2,}:[0-5][0-9]:[0-5][0-9]$": "must be a duration written hours:minutes:seconds, e.g. 08:30:00",
  "^Vehicle (0|[1-9][0-9]*)$": 'must be a vehicle label "Vehicle <n>", e.g. "Vehicle 0"',
};

const FORMAT_PHRASES: Record<string, string> = {
  uri: "must be an absolute URL, e.g. https://partner.example.com/vrp/callback",
  "date-time": "must be an RFC 3339 date and time, e.g. 2026-01-31T08:00:00Z",
  uuid: "must be a UUID",
};

function message(error: ErrorObject, loc: string[], value: unknown): string {
  if (loc[1] === "time_limit_seconds" && loc.length === 2) return MESSAGES.timeLimitNotPositiveInteger;
  if (error.keyword === "additionalProperties") return `unknown field '${loc[loc.length - 1]}'`;
  if (error.keyword === "required") return `field required`;
  if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if (error.keyword === "type") {
    // JSON.parse reads a number beyond the double range (1e400) as Infinity, which Ajv calls "not a number".
    if (typeof value === "number" && !Number.isFinite(value)) {
      return "must be a finite number; this one is too large to represent (the largest is about 1.8e308)";
    }
    const expected = String((error.params as { type?: string }).type ?? "").split(",");
    return `must be ${expected.map((t) => TYPE_PHRASES[t] ?? t).join(" or ")}`;
  }
  if (error.keyword === "pattern") {
    return (
      PATTERN_PHRASES[String((error.params as { pattern?: string }).pattern)] ??
      "does not have the form the OpenAPI document gives for this field"
    );
  }
  if (error.keyword === "format") {
    const format = String((error.params as { format?: string }).format);
    return FORMAT_PHRASES[format] ?? `must be a valid ${format}`;
  }
  return error.message ?? "invalid value";
}

/** The value an error is about, found by its instance path in the validated request. */
function valueAt(root: unknown, instancePath: string): unknown {
  let node = root;
  for (const part of instancePath.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

/**
 * Turns Ajv's errors into the spec's `detail` items, one per location (Ajv may report a location
 * several times, once per failed keyword of a oneOf branch, which helps nobody). `request` is what
 * was validated (`{ requestBody, query, ... }` as openapi-backend hands it to Ajv), so a message
 * can tell what was wrong with the value.
 */
export function ajvIssues(errors: readonly ErrorObject[], request: unknown = undefined): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (error.keyword === "if" || error.keyword === "oneOf" || error.keyword === "anyOf") continue;
    const loc = location(error);
    const key = loc.join("\u0000");
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ loc, msg: message(error, loc, valueAt(request, error.instancePath)), type: typeName(error) });
    if (issues.length >= MAX_ISSUES) break;
  }
  return issues;
}
