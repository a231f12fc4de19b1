import { lookup as dnsLookup } from "node:dns/promises";
import { ipFamily, isAcceptableAddress, unbracket } from "./address-policy.js";

/**
 * SSRF guard for callback URLs, in two stages:
 * - checkCallbackUrl at submit: scheme, length, credentials, `localhost` names and IP literals
 *   in any spelling (WHATWG URL parsing turns 2130706433, 0177.0.0.1, 0x7f.1, 127.1,
 *   %31%32%37.0.0.1, full-width digits and ::ffff:127.0.0.1 into canonical literals first);
 * - resolveCallbackTarget at send time: the name is resolved once, every address must be
 *   acceptable, and the caller connects to the returned address only (no second lookup, so a
 *   DNS answer that changes between check and connect cannot redirect the request).
 */
export interface CallbackGuardOptions {
  /** Development and tests only: admits 127.0.0.0/8, ::1 and the name `localhost`. */
  allowLoopback: boolean;
  /** CIDR blocks the operator trusts although they are not public (CALLBACK_ALLOWED_NETWORKS). */
  trustedNetworks?: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses; injectable so tests never touch real DNS. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface ResolveOptions extends CallbackGuardOptions {
  lookup?: HostLookup;
}

export type ResolvedTarget =
  | { ok: true; address: string; family: 4 | 6 }
  /** kind tells a policy refusal apart from a name that could not be resolved at all. */
  | { ok: false; reason: string; kind: "policy" | "dns" };

export const MAX_CALLBACK_URL_LENGTH = 2048;

export const REASONS = {
  invalid: "callback_url must be a valid absolute URL",
  scheme: "callback_url must use http or https",
  tooLong: `callback_url must not be longer than ${MAX_CALLBACK_URL_LENGTH} characters`,
  credentials: "callback_url must not contain credentials",
  localhost: "callback_url must not point to localhost",
  address: "callback_url must not point to a private, loopback or reserved address",
  resolvesPrivate: "callback_url host resolves to a private, loopback or reserved address",
  unresolvable: "callback_url host could not be resolved",
} as const;

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Lower-case host without trailing dots, which resolvers ignore ("localhost." is localhost). */
function bareHostName(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, "");
}

function isLocalhostName(hostname: string): boolean {
  const name = bareHostName(hostname);
  return name === "localhost" || name.endsWith(".localhost");
}

/** The exact name `localhost`, the only name the loopback allowance admits. */
function isPlainLocalhost(hostname: string): boolean {
  return bareHostName(hostname) === "localhost";
}

type ParsedCallbackUrl = { ok: true; url: URL } | { ok: false; reason: string };

/** Parses and applies every check that needs no DNS. */
export function parseCallbackUrl(raw: string, options: CallbackGuardOptions): ParsedCallbackUrl {
  if (raw.length > MAX_CALLBACK_URL_LENGTH) return { ok: false, reason: REASONS.tooLong };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: REASONS.invalid };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: REASONS.scheme };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: REASONS.credentials };
  if (url.hostname === "") return { ok: false, reason: REASONS.invalid };

  if (isLocalhostName(url.hostname)) {
    return options.allowLoopback && isPlainLocalhost(url.hostname) ? { ok: true, url } : { ok: false, reason: REASONS.localhost };
  }
  if (ipFamily(url.hostname) !== 0 && !isAcceptableAddress(url.hostname, options.allowLoopback, options.trustedNetworks)) {
    return { ok: false, reason: REASONS.address };
  }
  return { ok: true, url };
}

/** Submit-time check: null when acceptable, otherwise an English reason for the client. */
export function checkCallbackUrl(url: string, options: CallbackGuardOptions): string | null {
  const parsed = parseCallbackUrl(url, options);
  return parsed.ok ? null : parsed.reason;
}

/**
 * Send-time check: resolves the host once and returns the single address to connect to.
 * Refuses when ANY resolved address is unacceptable, because a resolver or a later connect
 * attempt could otherwise pick the private one.
 */
export async function resolveCallbackTarget(url: string, options: ResolveOptions): Promise<ResolvedTarget> {
  const parsed = parseCallbackUrl(url, options);
  if (!parsed.ok) return { ok: false, reason: parsed.reason, kind: "policy" };
  return resolveHost(parsed.url.hostname, options);
}

/** Resolves an already checked URL host name (see parseCallbackUrl). */
export async function resolveHost(hostname: string, options: ResolveOptions): Promise<ResolvedTarget> {
  const literalFamily = ipFamily(hostname);
  if (literalFamily !== 0) return { ok: true, address: unbracket(hostname), family: literalFamily };
  // RFC 6761 lets applications treat `localhost` as loopback without asking a resolver; doing so
  // also keeps tests independent of whether /etc/hosts lists ::1 or 127.0.0.1 first.
  if (isPlainLocalhost(hostname)) return { ok: true, address: "127.0.0.1", family: 4 };

  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (options.lookup ?? defaultLookup)(hostname);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { ok: false, reason: typeof code === "string" ? `${REASONS.unresolvable} (${code})` : REASONS.unresolvable, kind: "dns" };
  }
  const first = addresses[0];
  if (first === undefined) return { ok: false, reason: REASONS.unresolvable, kind: "dns" };
  if (!addresses.every((entry) => isAcceptableAddress(entry.address, options.allowLoopback, options.trustedNetworks))) {
    return { ok: false, reason: REASONS.resolvesPrivate, kind: "policy" };
  }
  const family = ipFamily(first.address);
  if (family === 0) return { ok: false, reason: REASONS.resolvesPrivate, kind: "policy" };
  return { ok: true, address: unbracket(first.address), family };
}
