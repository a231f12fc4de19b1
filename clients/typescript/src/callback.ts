import { createHmac, timingSafeEqual } from "node:crypto";
import type { CompletionCallbackBody } from "./types.js";

/**
 * For the receiving side of the completion callback: checks the Standard Webhooks signature the
 * service sends (`webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>`,
 * key = base64-decoded part of the account's `whsec_` secret) and the timestamp's age, then parses
 * the body. Pass the body exactly as received (before any JSON parsing).
 */
export class CallbackVerificationError extends Error {
  override readonly name = "VrpCallbackVerificationError";
}

export interface CallbackRequest {
  headers: Headers | Record<string, string | string[] | undefined>;
  rawBody: string | Uint8Array;
}

/** Standard Webhooks' replay window: five minutes either way. */
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export function verifyCallback(
  secret: string,
  request: CallbackRequest,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): CompletionCallbackBody {
  const id = header(request.headers, "webhook-id");
  const timestamp = header(request.headers, "webhook-timestamp");
  const signatures = header(request.headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new CallbackVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header");
  if (!/^\d{1,15}$/.test(timestamp)) throw new CallbackVerificationError("webhook-timestamp is not Unix seconds");
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new CallbackVerificationError("webhook-timestamp is outside the tolerance (replayed or clock skew)");
  }
  const body = typeof request.rawBody === "string" ? request.rawBody : Buffer.from(request.rawBody).toString("utf8");
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  if (key.length === 0) throw new CallbackVerificationError("the secret must be whsec_ followed by a base64 key");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`, "utf8").digest();
  // Several space-separated signatures may be sent while a secret is rotated; one valid v1 suffices.
  const valid = signatures.split(" ").some((entry) => {
    const [version, encoded] = entry.split(",", 2);
    if (version !== "v1" || !encoded) return false;
    const given = Buffer.from(encoded, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new CallbackVerificationError("no valid v1 signature");
  return JSON.parse(body) as CompletionCallbackBody;
}

function header(headers: CallbackRequest["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}
