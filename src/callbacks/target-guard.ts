import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isLoopbackAddress, isPublicAddress } from "./address-policy.js";

export interface CallbackGuardOptions {
  /** Development and tests only: admit 127.0.0.0/8, ::1 and `localhost`. Off by default. */
  allowLoopback: boolean;
  /** Injectable resolver (tests); defaults to the system resolver. */
  lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
}

const MAX_URL_LENGTH = 2048;
const REFUSED_ADDRESS = "callback_url must not point to localhost or a private, loopback, link-local or reserved address";

/** The host as it will be connected to: no IPv6 brackets, no trailing dots, lower case. */
function normalisedHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "").toLowerCase();
}

function isLocalhostName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

function addressAllowed(address: string, options: CallbackGuardOptions): boolean {
  return isPublicAddress(address) || (options.allowLoopback && isLoopbackAddress(address));
}

/**
 * Submit-time check (spec 2.1, decisions.md): scheme, length, credentials, `localhost` and
 * literal addresses in any spelling (the WHATWG parser already turns decimal, octal, hex and
 * short IPv4 forms into dotted quads). Names are checked again after resolution at send time.
 * Returns null when acceptable, else an English reason.
 */
export function checkCallbackUrl(raw: string, options: CallbackGuardOptions): string | null {
  if (raw.length > MAX_URL_LENGTH) return `callback_url must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "callback_url must be an absolute http:// or https:// URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "callback_url must start with http:// or https://";
  if (url.username !== "" || url.password !== "") return "callback_url must not contain credentials";
  const host = normalisedHost(url);
  if (host === "") return "callback_url must name a host";
  if (isLocalhostName(host)) return options.allowLoopback ? null : REFUSED_ADDRESS;
  if (isIP(host) !== 0 && !addressAllowed(host, options)) return REFUSED_ADDRESS;
  return null;
}

export type ResolvedTarget = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

/**
 * Send-time check: resolves the host once and refuses if ANY address is not public, so a name
 * cannot smuggle a private address among public ones. The caller must connect to the returned
 * address (never resolve again), which defeats DNS rebinding.
 */
export async function resolveCallbackTarget(raw: string, options: CallbackGuardOptions): Promise<ResolvedTarget> {
  const reason = checkCallbackUrl(raw, options);
  if (reason !== null) return { ok: false, reason };
  const url = new URL(raw);
  const host = normalisedHost(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      const resolve = options.lookup ?? ((h: string) => dnsLookup(h, { all: true, verbatim: true }));
      addresses = await resolve(isLocalhostName(host) ? "localhost" : host);
    } catch (err) {
      return { ok: false, reason: `callback host '${host}' could not be resolved: ${(err as Error).message}` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `callback host '${host}' has no address` };
  const bad = addresses.find((a) => !addressAllowed(a.address, options));
  if (bad) return { ok: false, reason: `${REFUSED_ADDRESS} (${host} resolves to ${bad.address})` };
  const first = addresses[0]!;
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
