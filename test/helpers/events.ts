import { expect } from "chai";
import type { ApiClient } from "./client.js";
import { expectMatchesSchema, responseSchemaPointer } from "./spec.js";

/** One parsed server-sent event of GET /api/v1/solve/events/{request_id}. */
export interface SolveEventFrame {
  id: string;
  event: string;
  data: { success: boolean; request_id: string; result: any; error: string | null; code?: string };
}

export interface EventReader {
  /** Comment lines seen so far (`: keep-alive`, `: connected`). */
  comments: string[];
  /** Every event seen so far, each already checked against the document. */
  events: SolveEventFrame[];
  /** The next event, or null when the server closed the stream. */
  next(timeoutMs?: number): Promise<SolveEventFrame | null>;
  /** Reads to the end of the stream and checks the whole sequence against the document. */
  readAll(timeoutMs?: number): Promise<SolveEventFrame[]>;
  /** Leaves as a client would: aborts the request. */
  close(): void;
}

/**
 * Opens the event stream through the typed client (so the status and media type are checked
 * against the document) and parses `text/event-stream` as a browser's fetch() reader would.
 */
export async function openEvents(client: ApiClient, requestId: string, lastEventId?: string): Promise<EventReader> {
  const abort = new AbortController();
  const { response, data } = await client.GET("/api/v1/solve/events/{request_id}", {
    params: { path: { request_id: requestId }, header: lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId } },
    parseAs: "stream",
    signal: abort.signal,
  });
  expect(response.status, "events status").to.equal(200);
  const reader = (data as unknown as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  const comments: string[] = [];
  const events: SolveEventFrame[] = [];

  const nextBlock = async (deadline: number): Promise<string | null> => {
    for (;;) {
      const cut = buffer.indexOf("\n\n");
      if (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        return block;
      }
      if (ended) return null;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no event within the time allowed; seen: ${events.map((e) => e.event).join(",")}`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>(
          (_, reject) =>
            (timer = setTimeout(
              () => reject(new Error(`no event within the time allowed; seen: ${events.map((e) => e.event).join(",")}`)),
              remaining,
            )),
        ),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) ended = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
    }
  };

  const next = async (timeoutMs = 30_000): Promise<SolveEventFrame | null> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const block = await nextBlock(deadline);
      if (block === null) return null;
      const fields: Record<string, string> = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) comments.push(line);
        else if (line.includes(":")) fields[line.slice(0, line.indexOf(":"))] = line.slice(line.indexOf(":") + 1).replace(/^ /, "");
      }
      if (fields.event === undefined) continue;
      const frame = { id: fields.id!, event: fields.event, data: JSON.parse(fields.data!) } as SolveEventFrame;
      await expectMatchesSchema("#/components/schemas/SolveEvent", frame, `event ${frame.event}`);
      events.push(frame);
      return frame;
    }
  };

  return {
    comments,
    events,
    next,
    readAll: async (timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while ((await next(deadline - Date.now())) !== null);
      await expectMatchesSchema(responseSchemaPointer("getSolveEvents", 200, "text/event-stream"), events, "the whole event stream");
      return events;
    },
    close: () => abort.abort(),
  };
}
