import type { OpenAPIBackend } from "openapi-backend";
import { createSpecBackend } from "../../src/api/spec-backend.js";

let shared: Promise<OpenAPIBackend> | null = null;

/**
 * The API's router and validator built from the OpenAPI document, once per test process: building
 * it compiles every schema of the document (seconds of CPU), and the files that use it only
 * validate requests through it, with no handlers registered and nothing changed.
 */
export function sharedSpecBackend(): Promise<OpenAPIBackend> {
  shared ??= createSpecBackend({});
  return shared;
}
