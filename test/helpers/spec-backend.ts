import type { OpenAPIBackend } from "openapi-backend";
import { createSpecBackend } from "../../src/api/spec-backend.js";

let shared: Promise<OpenAPIBackend> | null = null;

/**
 * The API's router and validator built from the OpenAPI document, once per test process: each
 * operation's schemas are compiled on first use (up to seconds of CPU for all of them), and the
 * files that use it only validate through it, with no handlers registered and nothing changed.
 */
export function sharedSpecBackend(): Promise<OpenAPIBackend> {
  shared ??= createSpecBackend({});
  return shared;
}
