import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com/):
 * webhook-signature = "v1," + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")),
 * where the secret is "whsec_" + base64(key).
 */
export const WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

const SECRET_PREFIX = "whsec_";
const SIGNATURE_VERSION = "v1";
/** Standard Webhooks recommends five minutes against replays. */
export const DEFAULT_TOLERANCE_SEC = 5 * 60;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** A unique message id; receivers use it to drop duplicates. */
export function newWebhookMessageId(): string {
  return "msg_" + randomBytes(16).toString("base64url");
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new Error("webhook secret must be whsec_ followed by a non-empty base64 key");
  return key;
}

function signatureBytes(secret: string, id: string, timestampSec: number, body: string): Buffer {
  return createHmac("sha256", secretKey(secret)).update(`${id}.${timestampSec}.${body}`, "utf8").digest();
}

export function signWebhook(secret: string, id: string, timestampSec: number, body: string): string {
  return `${SIGNATURE_VERSION},${signatureBytes(secret, id, timestampSec, body).toString("base64")}`;
}

function header(headers: Record<string, string | undefined>, name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * Verifies id, timestamp (within toleranceSec of nowSec) and signature. The signature header may
 * carry several space-separated signatures (key rotation); one valid v1 signature suffices.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  toleranceSec: number = DEFAULT_TOLERANCE_SEC,
  nowSec: number = Math.floor(Date.now() / 1000),
): boolean {
  const id = header(headers, WEBHOOK_HEADERS.id);
  const timestampText = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = header(headers, WEBHOOK_HEADERS.signature);
  if (!id || !timestampText || !signatures || !/^\d{1,15}$/.test(timestampText)) return false;
  const timestampSec = Number(timestampText);
  if (Math.abs(nowSec - timestampSec) > toleranceSec) return false;

  const expected = signatureBytes(secret, id, timestampSec, body);
  return signatures.split(" ").some((entry) => {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== SIGNATURE_VERSION) return false;
    const given = Buffer.from(entry.slice(comma + 1), "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
