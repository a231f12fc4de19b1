import { request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { ipFamily, unbracket } from "./address-policy.js";

export interface PinnedPost {
  url: URL;
  /** The checked address; the socket connects here and nowhere else. */
  address: string;
  family: 4 | 6;
  headers: OutgoingHttpHeaders;
  body: string;
  signal: AbortSignal;
}

export type PinnedPostResult = { kind: "response"; status: number } | { kind: "aborted" } | { kind: "error"; reason: string };

/**
 * Answers every lookup with the checked address, whatever the socket asks for. Node 20 calls
 * lookup with `all: true` when autoSelectFamily is on (the default), so both forms are served.
 */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  const lookup = (_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void): void => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return lookup as unknown as LookupFunction;
}

function describeError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * One POST, connected to the pinned address, with Host and TLS server name taken from the URL.
 * Resolves as soon as the status line arrives; the response body is never read. Redirects are
 * not followed (node:http never does).
 */
export function postToPinnedAddress(post: PinnedPost): Promise<PinnedPostResult> {
  const { url } = post;
  const isHttps = url.protocol === "https:";
  const hostname = unbracket(url.hostname);
  const send = isHttps ? httpsRequest : httpRequest;

  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: PinnedPostResult): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };

    const request = send({
      method: "POST",
      protocol: url.protocol,
      hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: url.pathname + url.search,
      headers: { ...post.headers, host: url.host },
      lookup: pinnedLookup(post.address, post.family),
      family: post.family,
      // A fresh socket per callback: a pooled keep-alive socket is keyed by host name and could
      // have been connected to an address checked for another request.
      agent: false,
      signal: post.signal,
      // SNI must not carry an IP literal or a trailing dot; certificate checks use this name.
      ...(isHttps && ipFamily(hostname) === 0 ? { servername: hostname.replace(/\.+$/, "") } : {}),
    });

    request.on("response", (response) => {
      settle({ kind: "response", status: response.statusCode ?? 0 });
      // We only need the status; dropping the socket keeps a slow body from holding it open.
      response.destroy();
    });
    request.on("error", (error) => {
      settle(post.signal.aborted ? { kind: "aborted" } : { kind: "error", reason: describeError(error) });
    });
    request.end(post.body);
  });
}
