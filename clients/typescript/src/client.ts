import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "./generated/api.js";
import { credentialHeaders, type Credentials } from "./credentials.js";
import { ApiError, UnexpectedResponseError, WaitTimeoutError, isApiError } from "./errors.js";
import type { FinishedResult, PollResult, SolveRequest, StrategyInfo, SubmitAcknowledgement } from "./types.js";
import { parseRetryAfter, scheduledWaitMs, sleep, POLL_SCHEDULE_MS } from "./wait.js";

export interface ClientOptions {
  /** e.g. "http://127.0.0.1:8080" */
  baseUrl: string;
  credentials: Credentials;
  /** Another fetch (a proxy agent, a test double); the global fetch by default. */
  fetch?: typeof globalThis.fetch;
}

export interface WaitOptions {
  /** Give up (WaitTimeoutError) after this long; default 15 minutes, the spec's advice. */
  timeoutMs?: number;
  /** Abort waiting (and the poll in flight); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Waits between polls, the last one repeated, counted from each poll's start; default the spec's 2 s, 3 s, then 5 s. */
  scheduleMs?: readonly number[];
  /**
   * Each poll asks the service to hold its answer until the task finishes, for up to this many
   * seconds (`wait_seconds`, at most 30): the result arrives the moment it is ready, in one
   * request. A poll that was held past the scheduled wait is followed by the next at once.
   * Default 20; 0 polls without holding.
   */
  longPollSeconds?: number;
  /** Called with every answer that is still processing (progress display). */
  onProcessing?: (poll: PollResult) => void;
  /** Time source and timer; tests pass their own. */
  clock?: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };
}

const DEFAULT_WAIT_MS = 15 * 60_000;
const DEFAULT_LONG_POLL_SECONDS = 20;
const MAX_LONG_POLL_SECONDS = 30;
const systemClock = { now: () => Date.now(), sleep };

/** The typed client: submit, poll and wait for a solve task; every error answer is an ApiError. */
export class VrpClient {
  /** The generated openapi-fetch client, for the operations this class does not wrap (history). */
  readonly raw: Client<paths>;

  constructor(options: ClientOptions) {
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: credentialHeaders(options.credentials),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Adds an openapi-fetch middleware (logging, response checks). */
  use(...middleware: Middleware[]): this {
    this.raw.use(...middleware);
    return this;
  }

  /** Submits a problem; resolves with the acknowledgement (its `request_id`), never the solution. */
  async submit(request: SolveRequest, options: { signal?: AbortSignal } = {}): Promise<SubmitAcknowledgement> {
    const { data, error, response } = await this.raw.POST("/api/v1/solve", { body: request, ...signalOf(options.signal) });
    // openapi-fetch's read-only view drops the `error: null` member from its type; the body has it.
    if (data !== undefined) return data as unknown as SubmitAcknowledgement;
    throw toError(response, error);
  }

  /**
   * One poll: processing, solved or failed (a failed task is HTTP 200 with `success` false). With
   * `waitSeconds` the service holds the answer until the task finishes, for up to that long.
   */
  async poll(requestId: string, options: { signal?: AbortSignal; waitSeconds?: number } = {}): Promise<PollResult> {
    const wait = Math.min(MAX_LONG_POLL_SECONDS, Math.max(0, Math.floor(options.waitSeconds ?? 0)));
    const { data, error, response } = await this.raw.GET("/api/v1/solve/result/{request_id}", {
      params: { path: { request_id: requestId }, ...(wait > 0 ? { query: { wait_seconds: wait } } : {}) },
      ...signalOf(options.signal),
    });
    if (data !== undefined) return data as unknown as PollResult;
    throw toError(response, error);
  }

  /**
   * Polls until the task is solved or failed, each poll held by the service up to
   * `longPollSeconds`, with at least 2 s, 3 s, then 5 s from one poll's start to the next; a 429
   * or 503 answer is waited out for its Retry-After (at least the scheduled wait) and polled again.
   */
  async waitForResult(requestId: string, options: WaitOptions = {}): Promise<FinishedResult> {
    const clock = options.clock ?? systemClock;
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    const deadline = clock.now() + timeoutMs;
    const schedule = options.scheduleMs ?? POLL_SCHEDULE_MS;
    const longPollSeconds = options.longPollSeconds ?? DEFAULT_LONG_POLL_SECONDS;
    for (let polls = 0; ; polls++) {
      let waitMs = scheduledWaitMs(polls, schedule);
      const started = clock.now();
      try {
        const waitSeconds = Math.min(longPollSeconds, Math.floor((deadline - started) / 1000));
        const answer = await this.poll(requestId, { ...signalOf(options.signal), waitSeconds });
        if (isFinished(answer)) return answer;
        options.onProcessing?.(answer);
      } catch (err) {
        if (!(isApiError(err) && (err.status === 429 || err.status === 503))) throw err;
        waitMs = Math.max(waitMs, (err.retryAfterSeconds ?? 0) * 1000);
      }
      const now = clock.now();
      const remaining = deadline - now;
      if (remaining <= 0) throw new WaitTimeoutError(requestId, timeoutMs);
      // A poll the service held already spent (part of) the wait.
      const pause = Math.min(waitMs - (now - started), remaining);
      if (pause > 0) await clock.sleep(pause, options.signal);
    }
  }

  /** The strategies this deployment runs, by name, with the request features each takes. */
  async strategies(options: { signal?: AbortSignal } = {}): Promise<StrategyInfo[]> {
    const { data, error, response } = await this.raw.GET("/api/v1/strategies", { ...signalOf(options.signal) });
    if (data !== undefined) return (data as unknown as { result: StrategyInfo[] }).result;
    throw toError(response, error);
  }

  /** Submit, then wait for the finished task. */
  async solve(request: SolveRequest, options: WaitOptions = {}): Promise<FinishedResult> {
    const ack = await this.submit(request, signalOf(options.signal));
    return this.waitForResult(ack.request_id, options);
  }
}

/** Finished: anything but `result.status` "processing" (solved, or failed with `result` null). */
export function isFinished(answer: PollResult): answer is FinishedResult {
  return answer.result === null || answer.result.status !== "processing";
}

function signalOf(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}

function toError(response: Response, body: unknown): Error {
  const envelope = body as { success?: unknown; code?: unknown } | undefined;
  if (response.status >= 400 && envelope && envelope.success === false && typeof envelope.code === "string") {
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    return new ApiError(response.status as never, body as never, retryAfter);
  }
  return new UnexpectedResponseError(response.status, typeof body === "string" ? body : JSON.stringify(body));
}
