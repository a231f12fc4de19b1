import { createHash, randomInt } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const API_KEY_PATTERN = /^vrp_[0-9A-Za-z]{40}$/;

/** `vrp_` + 40 base62 characters from the CSPRNG: about 238 bits. */
export function generateApiKey(): string {
  let body = "";
  for (let i = 0; i < 40; i++) body += BASE62[randomInt(62)];
  return `vrp_${body}`;
}

/** Keys are stored and looked up only by this hash; the key itself is never kept. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A short, non-secret handle for listing and revoking a key. */
export function keyFingerprint(hash: string): string {
  return hash.slice(0, 12);
}
