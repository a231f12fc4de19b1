import type { OutgoingHttpHeaders } from "node:http";
import { performance } from "node:perf_hooks";
import { postToPinnedAddress } from "./pinned-request.js";
import { newWebhookMessageId, signWebhook, WEBHOOK_HEADERS } from "./signature.js";
import { parseCallbackUrl, resolveHost, type ResolveOptions, type ResolvedTarget } from "./target-guard.js";

export type CallbackOutcome =
  | { outcome: "delivered"; status: number; ms: number }
  | { outcome: "http_error"; status: number; ms: number }
  | { outcome: "timeout"; ms: number }
  | { outcome: "refused"; reason: string }
  | { outcome: "error"; reason: string; ms: number };

export interface DeliverOptions extends ResolveOptions {
  /** The account's "whsec_..." secret; null sends id and timestamp but no signature. */
  secret: string | null;
  /** Budget for the whole attempt: DNS, connect, send and status line. */
  timeoutMs?: number;
  messageId?: string;
  /** Wall clock in milliseconds, for webhook-timestamp. */
  now?: () => number;
}

export const DEFAULT_CALLBACK_TIMEOUT_MS = 10_000;
export const CALLBACK_USER_AGENT = "vrp-solve-service/1";

function callbackHeaders(body: string, options: DeliverOptions): OutgoingHttpHeaders {
  const id = options.messageId ?? newWebhookMessageId();
  const timestampSec = Math.floor((options.now ?? Date.now)() / 1000);
  const headers: OutgoingHttpHeaders = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body, "utf8"),
    "user-agent": CALLBACK_USER_AGENT,
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: String(timestampSec),
  };
  if (options.secret !== null) headers[WEBHOOK_HEADERS.signature] = signWebhook(options.secret, id, timestampSec, body);
  return headers;
}

const TIMED_OUT = Symbol("timed out");

/** Waits for work unless the signal fires first (the DNS lookup itself cannot be cancelled). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof TIMED_OUT> {
  if (signal.aborted) return Promise.resolve(TIMED_OUT);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(TIMED_OUT);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Sends the one callback for a finished task: exactly one POST, no retries, no redirects.
 * Never throws; every way it can end is an outcome for the task record and the metrics.
 */
export async function deliverCallback(url: string, body: string, options: DeliverOptions): Promise<CallbackOutcome> {
  const parsed = parseCallbackUrl(url, options);
  if (!parsed.ok) return { outcome: "refused", reason: parsed.reason };

  const started = performance.now();
  const elapsedMs = (): number => Math.round(performance.now() - started);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS);
  try {
    const target: ResolvedTarget | typeof TIMED_OUT = await untilAborted(resolveHost(parsed.url.hostname, options), deadline.signal);
    if (target === TIMED_OUT) return { outcome: "timeout", ms: elapsedMs() };
    if (!target.ok) {
      return target.kind === "policy"
        ? { outcome: "refused", reason: target.reason }
        : { outcome: "error", reason: target.reason, ms: elapsedMs() };
    }

    const result = await postToPinnedAddress({
      url: parsed.url,
      address: target.address,
      family: target.family,
      headers: callbackHeaders(body, options),
      body,
      signal: deadline.signal,
    });
    const ms = elapsedMs();
    switch (result.kind) {
      case "aborted":
        return { outcome: "timeout", ms };
      case "error":
        return { outcome: "error", reason: result.reason, ms };
      case "response":
        return result.status >= 200 && result.status < 300
          ? { outcome: "delivered", status: result.status, ms }
          : { outcome: "http_error", status: result.status, ms };
    }
  } catch (error) {
    return { outcome: "error", reason: error instanceof Error ? error.message : String(error), ms: elapsedMs() };
  } finally {
    clearTimeout(timer);
  }
}
