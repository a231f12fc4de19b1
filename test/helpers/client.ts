import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "../../generated/api.js";
import { expectMatchesSpec, expectNoContentDeclared, operationIdOf, responseSchemaPointer } from "./spec.js";

export type ApiClient = ReturnType<typeof createClient<paths>>;

/**
 * Every response the typed client receives is checked against the document with
 * @hyperjump/json-schema before the test sees it; a mismatch rejects the call.
 */
const validateEveryResponse: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const operationId = operationIdOf(schemaPath, request.method);
    if (!operationId) throw new Error(`${request.method} ${schemaPath} is not an operation of the document`);
    // A 204 must be declared by the document for this operation, and must have no body.
    if (response.status === 204) {
      expectNoContentDeclared(operationId);
      if ((await response.clone().text()) !== "") throw new Error(`${operationId} answered 204 with a body`);
      return undefined;
    }
    if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      // A stream the test reads itself (test/helpers/events.ts checks each event); here only that
      // the document declares this media type for the status.
      responseSchemaPointer(operationId, response.status, "text/event-stream");
      return undefined;
    }
    if (!(response.headers.get("content-type") ?? "").includes("application/json")) {
      throw new Error(`${operationId} answered ${response.status} with content type ${response.headers.get("content-type")}`);
    }
    await expectMatchesSpec(operationId, response.status, await response.clone().json());
    return undefined;
  },
};

export function apiClient(baseUrl: string, headers: Record<string, string> = {}): ApiClient {
  const client = createClient<paths>({ baseUrl, headers });
  client.use(validateEveryResponse);
  return client;
}

/** Polls a task (checking every response against the spec) until `done` says stop. */
export async function pollUntil(
  client: ApiClient,
  requestId: string,
  done: (body: { success: boolean; result: unknown }) => boolean,
  timeoutMs = 30_000,
): Promise<{ success: boolean; result: unknown; error: string | null; code?: string; diagnostics?: string[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data, response } = await client.GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: requestId } } });
    expectMatchesSpecSync(response.status);
    await expectMatchesSpec("getSolveResult", response.status, data);
    const body = data as unknown as { success: boolean; result: unknown; error: string | null };
    if (done(body)) return body;
    if (Date.now() > deadline)
      throw new Error(`task ${requestId} did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

function expectMatchesSpecSync(status: number): void {
  if (status !== 200) throw new Error(`poll answered HTTP ${status}`);
}

/** No longer queued or solving (`result.status` "processing"): solved, or failed (`result` null). */
export function isFinished(body: { success: boolean; result: unknown }): boolean {
  const status = (body.result as { status?: string } | null)?.status;
  return body.result === null || status !== "processing";
}

/** The same check for other openapi-fetch clients (the SDK's, in test/helpers/sdk.ts). */
export { validateEveryResponse };
