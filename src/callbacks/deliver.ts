import { randomBytes } from "node:crypto";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { signWebhook } from "./signature.js";
import { resolveCallbackTarget, type CallbackGuardOptions } from "./target-guard.js";

export type CallbackOutcome =
  | { outcome: "delivered"; status: number; ms: number }
  | { outcome: "http_error"; status: number; ms: number }
  | { outcome: "timeout"; ms: number }
  | { outcome: "refused"; reason: string }
  | { outcome: "error"; reason: string; ms: number };

export interface DeliverOptions extends CallbackGuardOptions {
  secret: string | null;
  timeoutMs?: number;
  messageId?: string;
  now?: () => number;
}

/** Answers every lookup with the one address that was checked, whatever the socket asks for. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/**
 * One POST of the completion body: guarded target, pinned address, Standard Webhooks headers,
 * a hard timeout, no redirects followed (Node's http client never follows them), no retries.
 */
export async function deliverCallback(url: string, body: string, options: DeliverOptions): Promise<CallbackOutcome> {
  const target = await resolveCallbackTarget(url, options);
  if (!target.ok) return { outcome: "refused", reason: target.reason };
  const now = options.now ?? Date.now;
  const id = options.messageId ?? `msg_${randomBytes(16).toString("hex")}`;
  const timestamp = Math.floor(now() / 1000);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "vrp-solve-service/1",
    "content-length": String(Buffer.byteLength(body)),
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
  };
  if (options.secret) headers["webhook-signature"] = signWebhook(options.secret, id, timestamp, body);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const started = now();
  const send = target.url.protocol === "https:" ? httpsRequest : httpRequest;

  return new Promise<CallbackOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: CallbackOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      target.url,
      { method: "POST", headers, lookup: pinnedLookup(target.address, target.family), agent: false },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        // Read (and drop) the answer so the socket closes cleanly.
        res.resume();
        res.on("end", () => finish({ outcome: status >= 200 && status < 300 ? "delivered" : "http_error", status, ms: now() - started }));
        res.on("error", () => finish({ outcome: status >= 200 && status < 300 ? "delivered" : "http_error", status, ms: now() - started }));
      },
    );
    const timer = setTimeout(() => {
      finish({ outcome: "timeout", ms: now() - started });
      req.destroy();
    }, timeoutMs);
    req.on("error", (err) => finish({ outcome: "error", reason: err.message, ms: now() - started }));
    req.end(body);
  });
}
