import { expect } from "chai";
import { checkCallbackUrl, REASONS, resolveCallbackTarget, type HostLookup } from "../../src/callbacks/target-guard.js";
import { loadConfig } from "../../src/config/load.js";

const STRICT = { allowLoopback: false };
const DEV = { allowLoopback: true };

/** [url, reason or null when accepted] with the loopback allowance off. */
const URL_TABLE: ReadonlyArray<readonly [string, string | null]> = [
  // accepted: public names and public literals
  ["https://example.com/hooks/vrp", null],
  ["http://example.com:8080/cb?task=1", null],
  ["HTTPS://EXAMPLE.COM/Path", null],
  ["https://example.com./hook", null],
  ["https://hooks.example.org:443/a#fragment", null],
  ["http://93.184.216.34/hook", null],
  ["http://1.1/hook", null], // short form of 1.0.0.1, public
  ["http://8.8.8.8/", null],
  ["http://[2606:4700:4700::1111]/hook", null],
  ["http://[::ffff:8.8.8.8]/", null],
  ["http://[64:ff9b::8.8.8.8]/", null],
  ["http://127.0.0.1.nip.io/", null], // a name; its resolution is judged at send time
  ["http://xn--nxasmq6b.com/", null],
  // scheme, syntax, length, credentials
  ["ftp://example.com/", REASONS.scheme],
  ["file:///etc/passwd", REASONS.scheme],
  ["javascript:alert(1)", REASONS.scheme],
  ["gopher://example.com:70/", REASONS.scheme],
  ["not a url", REASONS.invalid],
  ["/relative/path", REASONS.invalid],
  ["http://exa mple.com/", REASONS.invalid],
  ["http://256.0.0.1/", REASONS.invalid],
  ["http://1.2.3.4.5/", REASONS.invalid],
  ["http://[fe80::1%25eth0]/", REASONS.invalid],
  ["https://example.com/" + "a".repeat(2049 - "https://example.com/".length), REASONS.tooLong],
  ["http://user:pass@example.com/", REASONS.credentials],
  ["http://user@example.com/", REASONS.credentials],
  ["http://:secret@example.com/", REASONS.credentials],
  // localhost names
  ["http://localhost/", REASONS.localhost],
  ["http://LOCALHOST:3000/", REASONS.localhost],
  ["http://localhost./", REASONS.localhost],
  ["http://api.localhost/", REASONS.localhost],
  ["http://Foo.LocalHost../", REASONS.localhost],
  // IPv4 loopback in every spelling
  ["http://127.0.0.1/", REASONS.address],
  ["http://127.0.0.1./", REASONS.address],
  ["http://2130706433/", REASONS.address],
  ["http://0177.0.0.1/", REASONS.address],
  ["http://0x7f.1/", REASONS.address],
  ["http://0x7f000001/", REASONS.address],
  ["http://127.1/", REASONS.address],
  ["http://127.0.0.01/", REASONS.address],
  ["http://%31%32%37.0.0.1/", REASONS.address],
  ["http://\uFF11\uFF12\uFF17.\uFF10.\uFF10.\uFF11/", REASONS.address], // full-width digits
  ["http://127.255.255.254:8080/", REASONS.address],
  // other IPv4 special ranges
  ["http://0/", REASONS.address],
  ["http://0.0.0.0:80/", REASONS.address],
  ["http://10.0.0.1/", REASONS.address],
  ["http://172.16.0.1/", REASONS.address],
  ["http://172.31.255.255/", REASONS.address],
  ["http://0300.0250.0.1/", REASONS.address], // 192.168.0.1 in octal
  ["http://169.254.169.254/latest/meta-data/", REASONS.address],
  ["http://100.64.0.1/", REASONS.address],
  ["http://100.127.255.255/", REASONS.address],
  ["http://192.0.0.8/", REASONS.address],
  ["http://192.0.2.10/", REASONS.address],
  ["http://198.18.0.1/", REASONS.address],
  ["http://198.51.100.7/", REASONS.address],
  ["http://203.0.113.9/", REASONS.address],
  ["http://224.0.0.1/", REASONS.address],
  ["http://239.255.255.250/", REASONS.address],
  ["http://240.0.0.1/", REASONS.address],
  ["http://255.255.255.255/", REASONS.address],
  ["http://0xffffffff/", REASONS.address],
  // IPv6 special ranges and IPv4 embedded in IPv6
  ["http://[::1]/", REASONS.address],
  ["http://[0:0:0:0:0:0:0:1]:8080/", REASONS.address],
  ["http://[::]/", REASONS.address],
  ["http://[::ffff:127.0.0.1]/", REASONS.address],
  ["http://[::ffff:7f00:1]/", REASONS.address],
  ["http://[0:0:0:0:0:ffff:10.1.2.3]/", REASONS.address],
  ["http://[::ffff:169.254.169.254]/", REASONS.address],
  ["http://[::127.0.0.1]/", REASONS.address], // IPv4-compatible (deprecated)
  ["http://[64:ff9b::10.0.0.1]/", REASONS.address], // NAT64 with embedded private address
  ["http://[64:ff9b::7f00:1]/", REASONS.address],
  ["http://[64:ff9b:1::8.8.8.8]/", REASONS.address], // NAT64 local-use prefix
  ["http://[fc00::1]/", REASONS.address],
  ["http://[FD12:3456:789a::1]/", REASONS.address],
  ["http://[fe80::1]/", REASONS.address],
  ["http://[febf::1]/", REASONS.address],
  ["http://[fec0::1]/", REASONS.address], // site-local (deprecated)
  ["http://[ff02::1]/", REASONS.address],
  ["http://[2001:db8::1]/", REASONS.address],
  ["http://[2001::1]/", REASONS.address], // Teredo
  ["http://[2002:7f00:1::]/", REASONS.address], // 6to4
  ["http://[100::1]/", REASONS.address], // discard-only
  ["http://[3fff::1]/", REASONS.address],
];

describe("callbacks/target-guard checkCallbackUrl", () => {
  it("has a table of at least 40 spellings", () => {
    expect(URL_TABLE.length).to.be.at.least(40);
  });

  for (const [url, expected] of URL_TABLE) {
    const label = url.length > 80 ? `${url.slice(0, 60)}... (${url.length} chars)` : url;
    it(`${expected === null ? "accepts" : "refuses"} ${JSON.stringify(label)}`, () => {
      expect(checkCallbackUrl(url, STRICT)).to.equal(expected);
    });
  }

  it("accepts a URL of exactly 2048 characters", () => {
    const url = "https://example.com/" + "a".repeat(2048 - "https://example.com/".length);
    expect(url.length).to.equal(2048);
    expect(checkCallbackUrl(url, STRICT)).to.equal(null);
  });

  describe("with the loopback allowance", () => {
    const admitted = [
      "http://127.0.0.1:8080/cb",
      "http://127.1/",
      "http://2130706433/",
      "http://[::1]:9000/",
      "http://localhost:3000/",
      "http://LOCALHOST./",
    ];
    for (const url of admitted) {
      it(`admits ${url}`, () => expect(checkCallbackUrl(url, DEV)).to.equal(null));
    }
    const stillRefused: ReadonlyArray<readonly [string, string]> = [
      ["http://api.localhost/", REASONS.localhost],
      ["http://0.0.0.0/", REASONS.address],
      ["http://[::]/", REASONS.address],
      ["http://10.0.0.1/", REASONS.address],
      ["http://169.254.169.254/", REASONS.address],
      ["http://[fe80::1]/", REASONS.address],
      ["http://user:pw@127.0.0.1/", REASONS.credentials],
    ];
    for (const [url, reason] of stillRefused) {
      it(`still refuses ${url}`, () => expect(checkCallbackUrl(url, DEV)).to.equal(reason));
    }
  });
});

/** A lookup that records every call and answers from a fixed table. */
function countingLookup(answers: Record<string, ReadonlyArray<{ address: string; family: number }>>) {
  const calls: string[] = [];
  const lookup: HostLookup = async (hostname) => {
    calls.push(hostname);
    const answer = answers[hostname];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answer;
  };
  return { lookup, calls };
}

describe("callbacks/target-guard resolveCallbackTarget", () => {
  it("refuses localhost names without asking the resolver", async () => {
    const { lookup, calls } = countingLookup({ localhost: [{ address: "127.0.0.1", family: 4 }] });
    for (const url of ["http://localhost/", "http://localhost./", "http://app.localhost:8080/"]) {
      expect(await resolveCallbackTarget(url, { ...STRICT, lookup })).to.deep.equal({
        ok: false,
        reason: REASONS.localhost,
        kind: "policy",
      });
    }
    expect(calls).to.deep.equal([]);
  });

  it("refuses private and loopback literals without asking the resolver", async () => {
    const { lookup, calls } = countingLookup({});
    for (const url of ["http://10.1.2.3/", "http://0x7f.1/", "http://[::ffff:192.168.1.1]/", "http://[fd00::5]/"]) {
      const result = await resolveCallbackTarget(url, { ...STRICT, lookup });
      expect(result).to.deep.equal({ ok: false, reason: REASONS.address, kind: "policy" });
    }
    expect(calls).to.deep.equal([]);
  });

  it("returns a public literal as is, without a lookup", async () => {
    const { lookup, calls } = countingLookup({});
    expect(await resolveCallbackTarget("https://[2606:4700::1111]/x", { ...STRICT, lookup })).to.deep.equal({
      ok: true,
      address: "2606:4700::1111",
      family: 6,
    });
    expect(await resolveCallbackTarget("http://0x08080808/", { ...STRICT, lookup })).to.deep.equal({
      ok: true,
      address: "8.8.8.8",
      family: 4,
    });
    expect(calls).to.deep.equal([]);
  });

  it("refuses a name that resolves to a mix of public and private addresses", async () => {
    const { lookup, calls } = countingLookup({
      "mixed.example": [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ],
    });
    const result = await resolveCallbackTarget("https://mixed.example/hook", { ...STRICT, lookup });
    expect(result).to.deep.equal({ ok: false, reason: REASONS.resolvesPrivate, kind: "policy" });
    expect(calls).to.deep.equal(["mixed.example"]);
  });

  it("refuses a name whose resolver answer is a mapped or link-local IPv6 address", async () => {
    const { lookup } = countingLookup({
      "mapped.example": [{ address: "::ffff:127.0.0.1", family: 6 }],
      "linklocal.example": [{ address: "fe80::1%eth0", family: 6 }],
      "garbage.example": [{ address: "not-an-ip", family: 4 }],
    });
    for (const host of ["mapped.example", "linklocal.example", "garbage.example"]) {
      const result = await resolveCallbackTarget(`https://${host}/`, { ...STRICT, lookup });
      expect(result.ok, host).to.equal(false);
    }
  });

  it("returns the first address of a name whose addresses are all public", async () => {
    const { lookup, calls } = countingLookup({
      "hooks.example": [
        { address: "2606:4700::6810:84e5", family: 6 },
        { address: "104.16.132.229", family: 4 },
      ],
    });
    const result = await resolveCallbackTarget("https://hooks.example/cb", { ...STRICT, lookup });
    expect(result).to.deep.equal({ ok: true, address: "2606:4700::6810:84e5", family: 6 });
    expect(calls).to.deep.equal(["hooks.example"]);
  });

  it("reports a name that does not resolve as a DNS failure, not a policy refusal", async () => {
    const { lookup } = countingLookup({ "empty.example": [] });
    expect(await resolveCallbackTarget("https://nowhere.example/", { ...STRICT, lookup })).to.deep.equal({
      ok: false,
      reason: `${REASONS.unresolvable} (ENOTFOUND)`,
      kind: "dns",
    });
    expect(await resolveCallbackTarget("https://empty.example/", { ...STRICT, lookup })).to.deep.equal({
      ok: false,
      reason: REASONS.unresolvable,
      kind: "dns",
    });
  });

  it("admits a name resolving to loopback only with the allowance, and localhost without DNS", async () => {
    const { lookup, calls } = countingLookup({ "dev.test": [{ address: "127.0.0.1", family: 4 }] });
    expect((await resolveCallbackTarget("http://dev.test:8080/", { ...STRICT, lookup })).ok).to.equal(false);
    expect(await resolveCallbackTarget("http://dev.test:8080/", { ...DEV, lookup })).to.deep.equal({
      ok: true,
      address: "127.0.0.1",
      family: 4,
    });
    expect(await resolveCallbackTarget("http://localhost:8080/", { ...DEV, lookup })).to.deep.equal({
      ok: true,
      address: "127.0.0.1",
      family: 4,
    });
    expect(calls).to.deep.equal(["dev.test", "dev.test"]);
  });
});

describe("callbacks/target-guard with networks the operator trusts (CALLBACK_ALLOWED_NETWORKS)", () => {
  const TRUSTED = { allowLoopback: false, trustedNetworks: ["172.30.99.0/24", "fd00:99::/32"] };

  it("admits addresses inside a trusted network, and no other private, loopback or reserved one", () => {
    expect(checkCallbackUrl("http://172.30.99.1:9000/hook", TRUSTED)).to.equal(null);
    expect(checkCallbackUrl("http://[fd00:99::7]/hook", TRUSTED)).to.equal(null);
    expect(checkCallbackUrl("http://172.30.100.1/hook", TRUSTED)).to.equal(REASONS.address);
    expect(checkCallbackUrl("http://10.0.0.1/hook", TRUSTED)).to.equal(REASONS.address);
    expect(checkCallbackUrl("http://127.0.0.1/hook", TRUSTED)).to.equal(REASONS.address);
    expect(checkCallbackUrl("http://localhost/hook", TRUSTED)).to.equal(REASONS.localhost);
    expect(checkCallbackUrl("http://172.30.99.1/hook", STRICT)).to.equal(REASONS.address);
  });

  it("resolves a name only when every address is public or trusted", async () => {
    const answer =
      (addresses: string[]): HostLookup =>
      async () =>
        addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    const inside = await resolveCallbackTarget("http://receiver.internal/hook", { ...TRUSTED, lookup: answer(["172.30.99.5"]) });
    expect(inside).to.deep.equal({ ok: true, address: "172.30.99.5", family: 4 });
    const mixed = await resolveCallbackTarget("http://receiver.internal/hook", { ...TRUSTED, lookup: answer(["172.30.99.5", "10.1.1.1"]) });
    expect(mixed).to.deep.include({ ok: false, kind: "policy" });
  });

  it("stops the configuration at start on a block it cannot read, naming the variable", () => {
    for (const bad of ["172.30.0.0", "172.30.0.0/33", "not-a-network/8", "fd00::/129"]) {
      expect(() => loadConfig({ CALLBACK_ALLOWED_NETWORKS: bad })).to.throw(
        /CALLBACK_ALLOWED_NETWORKS: '.*' is not a network in CIDR notation/,
      );
    }
    expect(loadConfig({ CALLBACK_ALLOWED_NETWORKS: " 172.30.99.0/24 , fd00::/8" }).callbacks.trustedNetworks).to.deep.equal([
      "172.30.99.0/24",
      "fd00::/8",
    ]);
  });
});
