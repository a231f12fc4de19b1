import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Standard Webhooks secrets: `whsec_` + base64 of the raw key. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
}

/** `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` (Standard Webhooks). */
export function signWebhook(secret: string, id: string, timestampSec: number, body: string): string {
  const mac = createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSec}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * What a receiver does: recompute the signature and compare in constant time; refuse stale or
 * future timestamps (replays). Accepts several space-separated signatures (key rotation).
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  toleranceSec = 300,
  nowSec = Math.floor(Date.now() / 1000),
): boolean {
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  const signatures = headers["webhook-signature"];
  if (!id || !signatures || !Number.isInteger(timestamp) || Math.abs(nowSec - timestamp) > toleranceSec) return false;
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body));
  return signatures.split(" ").some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
