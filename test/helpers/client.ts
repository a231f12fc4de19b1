import createClient from "openapi-fetch";
import type { paths } from "../../generated/api.js";
import { expectMatchesSpec } from "./spec.js";

export type ApiClient = ReturnType<typeof createClient<paths>>;

export function apiClient(baseUrl: string, headers: Record<string, string> = {}): ApiClient {
  return createClient<paths>({ baseUrl, headers });
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
    if (Date.now() > deadline) throw new Error(`task ${requestId} did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

function expectMatchesSpecSync(status: number): void {
  if (status !== 200) throw new Error(`poll answered HTTP ${status}`);
}

export function isFinished(body: { success: boolean; result: unknown }): boolean {
  const status = (body.result as { status?: string } | null)?.status;
  return body.result === null || status === undefined;
}
