import type { KV, KvEntry } from "@nats-io/kv";
import { generateApiKey, hashApiKey, keyFingerprint } from "./api-keys.js";
import { WatchedKvCache, type KvReader } from "./watched-kv-cache.js";

export interface Account {
  user: string;
  plan: string;
  disabled: boolean;
  createdAt: string;
  webhookSecret: string | null;
}

export type KeyState = "active" | "revoked" | "disabled";

export interface ApiKeyRecord {
  fingerprint: string;
  user: string;
  createdAt: string;
  expiresAt: string | null;
  state: KeyState;
}

/** The state a person should see: an active key past its expiry is `expired` (it no longer authenticates). */
export function keyStateAt(record: ApiKeyRecord, now: Date): KeyState | "expired" {
  if (record.state === "active" && record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime()) return "expired";
  return record.state;
}

export const USER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A cached read returns the same entry object until the value changes, so its parsed form is
 * kept beside it: authenticating a request then parses nothing. Frozen, since it is shared.
 */
const parsedEntries = new WeakMap<KvEntry, unknown>();
function parseEntry<T>(entry: KvEntry): T {
  let value = parsedEntries.get(entry);
  if (value === undefined) {
    value = Object.freeze(JSON.parse(decoder.decode(entry.value)) as object);
    parsedEntries.set(entry, value);
  }
  return value as T;
}

/** NATS KV keys allow only a restricted alphabet, so user names are stored hex-encoded. */
function accountKey(user: string): string {
  return `u.${Buffer.from(user, "utf8").toString("hex")}`;
}

function keyKey(hash: string): string {
  return `k.${hash}`;
}

/**
 * Revocation and disabling reach a cached API process through the watch within milliseconds;
 * this bounds how long a cached entry is trusted should the watch ever stall without ending.
 */
const CACHE_MAX_STALENESS_MS = 10_000;
const CACHE_MAX_ENTRIES = 50_000;
/**
 * Account reads are answered by any replica (or the watched cache), which may not yet hold an
 * account created a moment ago: a key for it is refused only after the account stayed missing
 * this long, read every ACCOUNT_READ_AGAIN_MS.
 */
const ACCOUNT_APPEARS_WITHIN_MS = 2_000;
const ACCOUNT_READ_AGAIN_MS = 50;

export class AccountStore {
  /** Reads for authentication go through these: the buckets themselves, or watched caches of them. */
  private readonly accountReads: KvReader;
  private readonly keyReads: KvReader;

  constructor(
    private readonly accounts: KV,
    private readonly keys: KV,
    reads: { accounts: KvReader; keys: KvReader } = { accounts, keys },
  ) {
    this.accountReads = reads.accounts;
    this.keyReads = reads.keys;
  }

  /**
   * The API's store: accounts and keys are read from in-memory caches kept current by KV
   * watches, so authenticating a request costs no round trip to NATS.
   */
  static async cached(accounts: KV, keys: KV): Promise<{ store: AccountStore; stop(): void }> {
    const options = { maxStalenessMs: CACHE_MAX_STALENESS_MS, maxEntries: CACHE_MAX_ENTRIES };
    const [accountCache, keyCache] = await Promise.all([WatchedKvCache.start(accounts, options), WatchedKvCache.start(keys, options)]);
    return {
      store: new AccountStore(accounts, keys, { accounts: accountCache, keys: keyCache }),
      stop: () => {
        accountCache.stop();
        keyCache.stop();
      },
    };
  }

  async getAccount(user: string): Promise<Account | null> {
    if (!USER_NAME_PATTERN.test(user)) return null;
    const entry = await this.accountReads.get(accountKey(user));
    if (!entry || entry.operation !== "PUT" || entry.length === 0) return null;
    return parseEntry<Account>(entry);
  }

  async createAccount(user: string, plan: string): Promise<Account> {
    if (!USER_NAME_PATTERN.test(user)) {
      throw new Error("user name must be 1-64 characters of letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    const account: Account = { user, plan, disabled: false, createdAt: new Date().toISOString(), webhookSecret: null };
    try {
      await this.accounts.create(accountKey(user), encoder.encode(JSON.stringify(account)));
    } catch (err) {
      if (err instanceof Error && /wrong last sequence/i.test(err.message)) throw new Error(`account '${user}' already exists`);
      throw err;
    }
    return account;
  }

  async updateAccount(user: string, change: (a: Account) => Account): Promise<Account> {
    const entry = await this.accounts.get(accountKey(user));
    if (!entry || entry.operation !== "PUT" || entry.length === 0) throw new Error(`no account '${user}'`);
    const next = change(JSON.parse(decoder.decode(entry.value)) as Account);
    await this.accounts.update(accountKey(user), encoder.encode(JSON.stringify(next)), entry.revision);
    return next;
  }

  async listAccounts(): Promise<Account[]> {
    const out: Account[] = [];
    for await (const k of await this.accounts.keys("u.*")) {
      const user = Buffer.from(k.slice(2), "hex").toString("utf8");
      const a = await this.getAccount(user);
      if (a) out.push(a);
    }
    return out.sort((a, b) => a.user.localeCompare(b.user));
  }

  /** Creates a key and returns it: the only time the key exists outside the caller's hands. */
  async createKey(user: string, expiresAt: Date | null = null): Promise<{ key: string; record: ApiKeyRecord }> {
    if (!(await this.accountAppears(user))) throw new Error(`no account '${user}'`);
    const key = generateApiKey();
    const hash = hashApiKey(key);
    const record: ApiKeyRecord = {
      fingerprint: keyFingerprint(hash),
      user,
      createdAt: new Date().toISOString(),
      expiresAt: expiresAt ? expiresAt.toISOString() : null,
      state: "active",
    };
    await this.keys.create(keyKey(hash), encoder.encode(JSON.stringify(record)));
    return { key, record };
  }

  /** Whether the account exists, read again for a moment when a lagging read says it does not. */
  private async accountAppears(user: string): Promise<boolean> {
    if (!USER_NAME_PATTERN.test(user)) return false;
    const until = Date.now() + ACCOUNT_APPEARS_WITHIN_MS;
    for (;;) {
      if (await this.getAccount(user)) return true;
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, ACCOUNT_READ_AGAIN_MS));
    }
  }

  async listKeys(user: string): Promise<ApiKeyRecord[]> {
    const out: ApiKeyRecord[] = [];
    for await (const k of await this.keys.keys("k.*")) {
      const entry = await this.keys.get(k);
      if (!entry || entry.operation !== "PUT" || entry.length === 0) continue;
      const record = JSON.parse(decoder.decode(entry.value)) as ApiKeyRecord;
      if (record.user === user) out.push(record);
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** Changes the state of the user's key whose fingerprint starts with `fingerprint`. */
  async setKeyState(user: string, fingerprint: string, state: KeyState): Promise<ApiKeyRecord> {
    for await (const k of await this.keys.keys("k.*")) {
      const hash = k.slice(2);
      if (!keyFingerprint(hash).startsWith(fingerprint) || fingerprint.length < 6) continue;
      const entry = await this.keys.get(k);
      if (!entry || entry.operation !== "PUT" || entry.length === 0) continue;
      const record = JSON.parse(decoder.decode(entry.value)) as ApiKeyRecord;
      if (record.user !== user) continue;
      const next = { ...record, state };
      await this.keys.update(k, encoder.encode(JSON.stringify(next)), entry.revision);
      return next;
    }
    throw new Error(`no key '${fingerprint}' for account '${user}'`);
  }

  /**
   * Resolves a user name and key to an account, or null. Both lookups always happen, so the time
   * taken does not tell whether the user exists; the key is compared only through its hash.
   */
  async authenticate(user: string, key: string, now: Date = new Date()): Promise<Account | null> {
    const hash = hashApiKey(key);
    const [keyEntry, account] = await Promise.all([this.keyReads.get(keyKey(hash)), this.getAccount(user)]);
    if (!keyEntry || keyEntry.operation !== "PUT" || keyEntry.length === 0 || !account) return null;
    const record = parseEntry<ApiKeyRecord>(keyEntry);
    if (record.user !== user || record.state !== "active" || account.disabled) return null;
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime()) return null;
    return account;
  }
}
