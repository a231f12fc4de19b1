import type { Envelope } from "./types.js";

export interface StreamEvent {
  name: string;
  id: string | null;
  data: unknown;
}

/**
 * Follows a task on `GET /api/v1/solve/events/{id}` (text/event-stream), read with a
 * streaming fetch because EventSource cannot send the authentication headers. Calls `onEvent`
 * for each event and returns the final poll response that the `solved` or `failed` event carries.
 * Returns null when the stream is unavailable (404 on a service without it, any other refusal,
 * or a stream that breaks before the end): the caller then polls.
 */
export async function followByEvents(
  headers: Record<string, string>,
  requestId: string,
  onEvent: (event: StreamEvent) => void,
  signal: AbortSignal,
): Promise<Envelope | null> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/solve/events/${encodeURIComponent(requestId)}`, {
      headers: { ...headers, Accept: "text/event-stream" },
      cache: "no-store",
      signal,
    });
  } catch {
    return null;
  }
  if (response.status !== 200 || !response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
      for (let end = blockEnd(buffer); end !== null; end = blockEnd(buffer)) {
        const event = parseEventBlock(buffer.slice(0, end.start));
        buffer = buffer.slice(end.next);
        if (!event) continue;
        onEvent(event);
        if (event.name === "solved" || event.name === "failed") {
          await reader.cancel().catch(() => undefined);
          return event.data as Envelope;
        }
      }
    }
  } catch {
    return null;
  }
}

function blockEnd(buffer: string): { start: number; next: number } | null {
  const match = /\r?\n\r?\n/.exec(buffer);
  return match ? { start: match.index, next: match.index + match[0].length } : null;
}

/** One SSE block: `event:`, `id:` and (possibly several) `data:` lines; comments start with ':'. */
export function parseEventBlock(block: string): StreamEvent | null {
  let name = "message";
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "id") id = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0) return null;
  try {
    return { name, id, data: JSON.parse(data.join("\n")) as unknown };
  } catch {
    return null;
  }
}
