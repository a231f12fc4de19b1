import { expect } from "chai";
import { classifyAddress, isAcceptableAddress, type AddressClass } from "../../src/callbacks/address-policy.js";

// Addresses as a resolver hands them back (getaddrinfo spelling, no brackets), which is what
// the send-time check sees; URL literals are covered by the target-guard table.
const ADDRESSES: ReadonlyArray<readonly [string, AddressClass]> = [
  ["8.8.8.8", "public"],
  ["93.184.216.34", "public"],
  ["2606:4700:4700::1111", "public"],
  ["::ffff:8.8.8.8", "public"],
  ["64:ff9b::808:808", "public"],
  ["127.0.0.1", "loopback"],
  ["127.10.20.30", "loopback"],
  ["::1", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  ["0.0.0.0", "non_public"],
  ["::", "non_public"],
  ["10.255.0.1", "non_public"],
  ["172.20.1.1", "non_public"],
  ["192.168.10.1", "non_public"],
  ["100.100.100.100", "non_public"],
  ["169.254.169.254", "non_public"],
  ["::ffff:169.254.169.254", "non_public"],
  ["::ffff:a9fe:a9fe", "non_public"],
  ["64:ff9b::a9fe:a9fe", "non_public"],
  ["::a00:1", "non_public"],
  ["fd00:ec2::254", "non_public"],
  ["fe80::1", "non_public"],
  ["fe80::1%eth0", "non_public"],
  ["ff05::2", "non_public"],
  ["2001:db8::1", "non_public"],
  ["127.1", "non_public"], // not a resolver spelling: never trusted
  ["[::1]x", "non_public"],
  ["", "non_public"],
];

describe("callbacks/address-policy", () => {
  for (const [address, expected] of ADDRESSES) {
    it(`classifies ${JSON.stringify(address)} as ${expected}`, () => {
      expect(classifyAddress(address)).to.equal(expected);
    });
  }

  it("admits loopback only with the allowance and never other non-public addresses", () => {
    expect(isAcceptableAddress("127.0.0.1", false)).to.equal(false);
    expect(isAcceptableAddress("127.0.0.1", true)).to.equal(true);
    expect(isAcceptableAddress("[::1]", true)).to.equal(true);
    expect(isAcceptableAddress("0.0.0.0", true)).to.equal(false);
    expect(isAcceptableAddress("10.0.0.1", true)).to.equal(false);
    expect(isAcceptableAddress("8.8.8.8", false)).to.equal(true);
  });
});
