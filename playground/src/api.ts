import type { Envelope, HistoryItem, SolveRequest } from "./types.js";
import { authHeaders, type Credentials } from "./session.js";

/** An answer of the service: the HTTP status and the JSON envelope (every answer has one). */
export interface Answer<T = Envelope> {
  status: number;
  body: T;
}

async function call<T = Envelope>(credentials: Credentials, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: "application/json", ...authHeaders(credentials) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { success: false, request_id: "", error: `HTTP ${response.status}: ${text.slice(0, 200)}`, result: null };
  }
  return { status: response.status, body: parsed as T };
}

export const submitSolve = (c: Credentials, request: SolveRequest) => call(c, "POST", "/api/v1/solve", request);

/** `includeBest` asks for the best routes so far while solving (ignored where unknown). */
export const pollResult = (c: Credentials, id: string, includeBest = false) =>
  call(c, "GET", `/api/v1/solve/result/${encodeURIComponent(id)}${includeBest ? "?include=best" : ""}`);

export const listHistory = (c: Credentials, limit = 50, cursor: string | null = null) =>
  call<Envelope & { result: { items: HistoryItem[]; next_cursor: string | null } | null }>(
    c,
    "GET",
    `/api/v1/history?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
  );

export interface HistoryDownload {
  request_id: string;
  submitted_at: string;
  state: string;
  request: unknown;
  result: Envelope | null;
}

export const downloadHistoryItem = (c: Credentials, id: string) =>
  call<HistoryDownload & Partial<Envelope>>(c, "GET", `/api/v1/history/${encodeURIComponent(id)}`);
