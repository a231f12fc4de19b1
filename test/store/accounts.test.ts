import { expect } from "chai";
import { API_KEY_PATTERN } from "../../src/store/api-keys.js";
import { AccountStore } from "../../src/store/accounts.js";
import { withNats } from "../helpers/nats.js";

describe("accounts and API keys", function () {
  this.timeout(30_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let store: AccountStore;
  before(async () => {
    nats = await withNats();
    const conn = await nats.connect();
    store = new AccountStore(conn.accounts, conn.apiKeys);
  });
  after(async () => {
    await nats?.stop();
  });

  it("creates keys of the documented form and stores only their hash", async () => {
    await store.createAccount("erin", "starter");
    const { key, record } = await store.createKey("erin");
    expect(key).to.match(API_KEY_PATTERN);
    expect(JSON.stringify(record)).not.to.include(key.slice(4));
    expect(await store.authenticate("erin", key)).to.include({ user: "erin", plan: "starter" });
  });

  it("creates a key for an account a lagging read does not see yet, and refuses one for an account that never appears", async () => {
    const conn = await nats.connect();
    await store.createAccount("lena", "starter");
    // The first reads answer as a replica behind the account's write would: no such account.
    let misses = 3;
    const lagging = {
      get: async (key: string) => (misses-- > 0 ? null : conn.accounts.get(key)),
    };
    const behind = new AccountStore(conn.accounts, conn.apiKeys, { accounts: lagging, keys: conn.apiKeys });
    const { key } = await behind.createKey("lena");
    expect(misses, "read again until the account appeared").to.be.lessThan(0);
    expect(await store.authenticate("lena", key)).to.include({ user: "lena" });
    await behind.createKey("nobody").then(
      () => expect.fail("a key for an account that does not exist"),
      (err: Error) => expect(err.message).to.equal("no account 'nobody'"),
    );
  });

  it("refuses a key with another user's name, and unknown users", async () => {
    await store.createAccount("frank", "starter");
    const { key } = await store.createKey("erin");
    expect(await store.authenticate("frank", key)).to.equal(null);
    expect(await store.authenticate("ghost", key)).to.equal(null);
    expect(await store.authenticate("../etc", key)).to.equal(null);
  });

  it("refuses revoked, disabled and expired keys, and keys of disabled accounts", async () => {
    const revoked = await store.createKey("erin");
    await store.setKeyState("erin", revoked.record.fingerprint, "revoked");
    expect(await store.authenticate("erin", revoked.key)).to.equal(null);

    const expiring = await store.createKey("erin", new Date("2030-01-01T00:00:00Z"));
    expect(await store.authenticate("erin", expiring.key, new Date("2029-12-31T23:59:59Z"))).to.not.equal(null);
    expect(await store.authenticate("erin", expiring.key, new Date("2030-01-01T00:00:00Z"))).to.equal(null);

    const active = await store.createKey("frank");
    await store.updateAccount("frank", (a) => ({ ...a, disabled: true }));
    expect(await store.authenticate("frank", active.key)).to.equal(null);
  });

  it("serves authentication from a watched cache that sees revocation and disabling within moments", async () => {
    const conn = await nats.connect();
    const cached = await AccountStore.cached(conn.accounts, conn.apiKeys);
    try {
      await store.createAccount("gina", "starter");
      const { key, record } = await store.createKey("gina");
      // A key created a moment ago is found at once (a miss reads the bucket).
      expect(await cached.store.authenticate("gina", key)).to.include({ user: "gina" });
      await store.setKeyState("gina", record.fingerprint, "revoked");
      expect(await eventually(async () => (await cached.store.authenticate("gina", key)) === null)).to.equal(true);
      await store.setKeyState("gina", record.fingerprint, "active");
      expect(await eventually(async () => (await cached.store.authenticate("gina", key)) !== null)).to.equal(true);
      await store.updateAccount("gina", (a) => ({ ...a, disabled: true }));
      expect(await eventually(async () => (await cached.store.authenticate("gina", key)) === null)).to.equal(true);
    } finally {
      cached.stop();
    }
  });

  it("lists keys without the key itself and refuses duplicate accounts", async () => {
    const keys = await store.listKeys("erin");
    expect(keys.length).to.be.at.least(3);
    for (const k of keys) expect(k).to.have.all.keys("fingerprint", "user", "createdAt", "expiresAt", "state");
    await store.createAccount("dup", "starter");
    let message = "";
    await store.createAccount("dup", "starter").catch((e: Error) => (message = e.message));
    expect(message).to.equal("account 'dup' already exists");
  });

  it("takes the same path for an unknown user as for a wrong key: one key lookup by hash and one account read, in parallel", async () => {
    const conn = await nats.connect();
    const reads: string[] = [];
    const counting = <T extends object>(kv: T, label: string): T =>
      new Proxy(kv, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (prop !== "get" || typeof value !== "function") return value;
          return (key: string) => {
            reads.push(`${label}:${label === "key" ? "<hash>" : "<user>"}`);
            expect(key, "keys are looked up by hash, never by the key itself").not.to.match(/^vrp_/);
            return (value as (k: string) => unknown).call(target, key);
          };
        },
      });
    const watched = new AccountStore(counting(conn.accounts, "account"), counting(conn.apiKeys, "key"));
    await store.createAccount("hank", "starter");
    const { key: hanksKey } = await store.createKey("hank");
    const paths: string[][] = [];
    for (const [user, key] of [
      ["nobody-here", "vrp_" + "a".repeat(40)], // unknown user, unknown key
      ["hank", "vrp_" + "a".repeat(40)], // known user, wrong key
      ["nobody-here", hanksKey], // unknown user, someone's valid key
    ] as const) {
      reads.length = 0;
      expect(await watched.authenticate(user, key)).to.equal(null);
      paths.push([...reads].sort());
    }
    expect(paths[0]).to.deep.equal(["account:<user>", "key:<hash>"]);
    expect(paths[1]).to.deep.equal(paths[0]);
    expect(paths[2]).to.deep.equal(paths[0]);
  });
});

/** True once `check` holds, polling for at most half a second (a watch delivers in milliseconds). */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}
