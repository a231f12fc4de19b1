import { BlockList, isIP } from "node:net";

/**
 * Every range that is not the public internet: loopback, private, link-local, CGNAT, multicast,
 * documentation, benchmarking, reserved, unspecified, and IPv6 forms that embed or tunnel to
 * such addresses. Node's BlockList does the matching, so no address arithmetic is hand-written.
 */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) NON_PUBLIC.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible block
  ["64:ff9b::", 96], ["64:ff9b:1::", 48], // NAT64
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments, Teredo included
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) NON_PUBLIC.addSubnet(net, prefix, "ipv6");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** The IPv4 address inside an IPv4-mapped IPv6 address, in either spelling, or null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4 !== null) return LOOPBACK.check(v4, "ipv4");
  return LOOPBACK.check(address, "ipv6");
}

/** True only for a literal IP address on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, "ipv4");
  if (family === 6) {
    // Not a ::ffff:0:0/96 rule: BlockList would then match every plain IPv4 address as well.
    // Mapped addresses are refused outright; a partner has no reason to spell a public IPv4 so.
    if (embeddedIpv4(address) !== null || /^::ffff:/i.test(address)) return false;
    return !NON_PUBLIC.check(address, "ipv6");
  }
  return false;
}
