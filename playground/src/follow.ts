import { pollResult } from "./api.js";
import { followByEvents, type StreamEvent } from "./event-stream.js";
import { authHeaders, type Credentials } from "./session.js";
import type { Envelope, Progress } from "./types.js";

export interface LiveState {
  transport: "events" | "polling";
  phase: string;
  queueDepth: number | null;
  progress: Progress | null;
}

export interface FinalAnswer {
  status: number;
  body: Envelope;
}

/** The spec's recommended waits between polls: 2 s, 3 s, then 5 s; give up after about 15 min. */
export const POLL_WAITS_MS = [2000, 3000, 5000];
const GIVE_UP_MS = 15 * 60 * 1000;

/**
 * Follows a submitted task until it is solved or failed: the event stream where the service has
 * it, polling otherwise. `onLive` gets each intermediate state; the final answer is returned.
 */
export async function followTask(
  credentials: Credentials,
  requestId: string,
  onLive: (state: LiveState) => void,
  signal: AbortSignal,
): Promise<FinalAnswer> {
  const final = await followByEvents(authHeaders(credentials), requestId, (event) => onLive(liveFromEvent(event)), signal);
  if (final) return { status: 200, body: final };
  return followByPolling(credentials, requestId, onLive, signal);
}

function liveFromEvent(event: StreamEvent): LiveState {
  const data = (event.data ?? {}) as Record<string, unknown>;
  // An event may carry a poll-shaped envelope or the bare fields; read either.
  const fields = (typeof data.result === "object" && data.result !== null ? data.result : data) as Record<string, unknown>;
  // The service puts progress in `result.progress`; a bare progress object is read as well.
  const progress =
    (fields.progress as Progress | undefined) ?? (event.name === "progress" && "elapsed_seconds" in fields ? (fields as Progress) : null);
  return {
    transport: "events",
    phase: event.name === "progress" ? "solving" : String(fields.phase ?? event.name),
    queueDepth: typeof fields.queue_depth === "number" ? fields.queue_depth : null,
    progress,
  };
}

async function followByPolling(
  credentials: Credentials,
  requestId: string,
  onLive: (state: LiveState) => void,
  signal: AbortSignal,
): Promise<FinalAnswer> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    let wait = POLL_WAITS_MS[Math.min(attempt, POLL_WAITS_MS.length - 1)]!;
    await sleep(wait, signal);
    const answer = await pollResult(credentials, requestId, true);
    const result = answer.body.result;
    if (answer.status === 200 && result !== null && result.status === "processing") {
      onLive({
        transport: "polling",
        phase: String(result.phase ?? "processing"),
        queueDepth: typeof result.queue_depth === "number" ? result.queue_depth : null,
        progress: (result.progress as Progress | undefined) ?? null,
      });
    } else if (answer.status === 429 || answer.status >= 500) {
      // Throttled or briefly unavailable: wait as told, then go on polling.
      wait = (answer.body.retry_after_seconds ?? 5) * 1000;
      await sleep(wait, signal);
    } else {
      return answer;
    }
    if (Date.now() - started > GIVE_UP_MS) {
      return {
        status: 0,
        body: {
          success: false,
          request_id: requestId,
          error: "Gave up following after 15 minutes; the result may still arrive (reopen it from the history)",
          result: null,
        },
      };
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
