import { BlockList, isIP } from "node:net";

/**
 * Which IP addresses a callback may be sent to.
 *
 * All range membership goes through Node's `net.BlockList` (no hand-written bit arithmetic).
 * BlockList answers `false` for input it cannot parse, which for a blocklist means "allowed";
 * so every decision below is fail-closed: an address counts as public only if it is positively
 * found in an allowlist (for IPv4 the whole space, for IPv6 the global unicast block) AND not in
 * the non-public list.
 */
export type AddressClass = "public" | "loopback" | "non_public";

type Subnet = readonly [network: string, prefix: number];

/** IANA IPv4 special-purpose ranges that must never receive a callback. */
const NON_PUBLIC_V4: readonly Subnet[] = [
  ["0.0.0.0", 8], // "this network", includes the unspecified address
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT shared address space
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata lives here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation TEST-NET-1
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation TEST-NET-2
  ["203.0.113.0", 24], // documentation TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, includes 255.255.255.255 broadcast
];

/**
 * IPv6 prefixes that embed an IPv4 address in their last 32 bits and are otherwise allowed:
 * IPv4-mapped (::ffff:0:0/96) and NAT64 well-known (64:ff9b::/96). Each non-public IPv4 range is
 * also blocked inside them. (Node's BlockList happens to match IPv4 rules against mapped
 * addresses too, but that is not documented, so the mapped rules are spelled out as well.)
 */
const V4_EMBEDDING_V6_PREFIXES = ["::ffff:", "64:ff9b::"] as const;

/** Special-purpose blocks inside 2000::/3 that are not ordinary global unicast. */
const NON_PUBLIC_V6_IN_GLOBAL: readonly Subnet[] = [
  ["2001::", 23], // IETF protocol assignments: Teredo, benchmarking 2001:2::/48, ORCHID
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // deprecated 6to4, embeds arbitrary IPv4
  ["3fff::", 20], // documentation (RFC 9637)
];

/**
 * IPv6 is judged by allowlist: only global unicast 2000::/3 plus the two IPv4-embedding
 * prefixes. This refuses ::, ::1, IPv4-compatible ::/96, discard 100::/64, NAT64 local-use
 * 64:ff9b:1::/48, SRv6 5f00::/16, unique-local fc00::/7, link-local fe80::/10, site-local
 * fec0::/10 and multicast ff00::/8 without listing each of them.
 */
const GLOBAL_V6: readonly Subnet[] = [
  ["2000::", 3],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
];

function buildLists() {
  const anyV4 = new BlockList();
  anyV4.addSubnet("0.0.0.0", 0, "ipv4");

  const nonPublic = new BlockList();
  for (const [network, prefix] of NON_PUBLIC_V4) {
    nonPublic.addSubnet(network, prefix, "ipv4");
    for (const embedding of V4_EMBEDDING_V6_PREFIXES) {
      nonPublic.addSubnet(embedding + network, 96 + prefix, "ipv6");
    }
  }
  for (const [network, prefix] of NON_PUBLIC_V6_IN_GLOBAL) nonPublic.addSubnet(network, prefix, "ipv6");

  const globalV6 = new BlockList();
  for (const [network, prefix] of GLOBAL_V6) globalV6.addSubnet(network, prefix, "ipv6");

  const loopback = new BlockList();
  loopback.addSubnet("127.0.0.0", 8, "ipv4");
  loopback.addAddress("::1", "ipv6");
  return { anyV4, nonPublic, globalV6, loopback };
}

const LISTS = buildLists();

/** Strips the brackets that URL.hostname keeps around IPv6 literals. */
export function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** 4 or 6 for an IP literal (brackets allowed), 0 for anything else, including zoned IPv6. */
export function ipFamily(host: string): 0 | 4 | 6 {
  const bare = unbracket(host);
  // Zone ids (fe80::1%eth0) are accepted by net.isIP but not by BlockList; they are only
  // meaningful for link-local addresses anyway, so they never count as an IP we can judge.
  if (bare.includes("%")) return 0;
  const family = isIP(bare);
  return family === 4 || family === 6 ? family : 0;
}

/**
 * Classifies one IP literal (as returned by dns.lookup or URL.hostname, brackets allowed).
 * Anything that is not a parseable IP address is "non_public".
 */
export function classifyAddress(host: string): AddressClass {
  const address = unbracket(host);
  const family = ipFamily(address);
  if (family === 0) return "non_public";
  const type = family === 4 ? "ipv4" : "ipv6";
  if (LISTS.loopback.check(address, type)) return "loopback";
  const inAllowedSpace = family === 4 ? LISTS.anyV4.check(address, "ipv4") : LISTS.globalV6.check(address, "ipv6");
  if (!inAllowedSpace) return "non_public";
  return LISTS.nonPublic.check(address, type) ? "non_public" : "public";
}

/**
 * Networks an operator trusts as callback targets although they are not public (a receiver in the
 * same cluster or compose network): CIDR blocks such as "172.30.0.0/16" or "fd00::/8". Throws on a
 * block it cannot read, so a mistyped setting stops the process at start instead of refusing later.
 */
export function trustedNetworks(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const match = /^([^/]+)\/(\d{1,3})$/.exec(cidr.trim());
    const family = match ? isIP(match[1]!) : 0;
    const prefix = match ? Number(match[2]) : NaN;
    if (!match || family === 0 || prefix > (family === 4 ? 32 : 128)) {
      throw new Error(`'${cidr}' is not a network in CIDR notation (for example 172.30.0.0/16 or fd00::/8)`);
    }
    list.addSubnet(match[1]!, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

const trustedCache = new Map<string, BlockList>();

function trustedFor(cidrs: readonly string[]): BlockList {
  const key = cidrs.join(",");
  let list = trustedCache.get(key);
  if (!list) trustedCache.set(key, (list = trustedNetworks(cidrs)));
  return list;
}

/**
 * True when a callback may connect to this address: a public one, loopback under the loopback
 * allowance, or an address inside a network the operator listed as trusted.
 */
export function isAcceptableAddress(host: string, allowLoopback: boolean, trusted: readonly string[] = []): boolean {
  const kind = classifyAddress(host);
  if (kind === "public" || (allowLoopback && kind === "loopback")) return true;
  const family = ipFamily(host);
  return trusted.length > 0 && family !== 0 && trustedFor(trusted).check(unbracket(host), family === 4 ? "ipv4" : "ipv6");
}
