import { expect } from "chai";
import type { KV } from "@nats-io/kv";
import { FAIR_SHARE_DEFAULTS, type Plan } from "../../src/config/plans.js";
import type { ApiError } from "../../src/errors/api-error.js";
import { Admission, type Clock } from "../../src/limits/admission.js";
import { blockSize, LeasedCounter } from "../../src/limits/counter-lease.js";
import { KvCounter } from "../../src/limits/kv-counter.js";
import { withNats } from "../helpers/nats.js";

const clock: Clock = { now: () => new Date("2026-06-10T12:00:05Z") };

describe("counters taken in blocks per API instance", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await nats?.stop();
  });

  it("hands out exactly the limit to two instances taking a busy key at once, in far fewer writes than takes", async () => {
    const limit = 640;
    expect(blockSize(limit)).to.equal(10);
    let writes = 0;
    const counted = (kv: KV): KV =>
      new Proxy(kv, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown;
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (prop === "update" || prop === "create") writes++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    const counters = [new KvCounter(counted((await nats.connect()).counters)), new KvCounter(counted((await nats.connect()).counters))];
    const leased = counters.map((c) => new LeasedCounter(c));
    // Each instance learns the counter's value first, as a submit counted one by one does.
    for (const l of leased) await l.take("busy", limit, false);
    const outcomes = await Promise.all(Array.from({ length: 1000 }, (_, i) => leased[i % 2]!.take("busy", limit, true)));
    expect(outcomes.filter((o) => o.ok)).to.have.length(limit - 2);
    expect(outcomes.filter((o) => !o.ok)).to.have.length(1000 - (limit - 2));
    expect(await counters[0]!.read("busy")).to.equal(limit);
    expect(writes, "compare-and-sets").to.be.below(limit / 3);
    // Every unit handed out: nothing left to give back, and the counter stays at the limit.
    await Promise.all(leased.map((l) => l.close()));
    expect(await counters[0]!.read("busy")).to.equal(limit);
  });

  it("takes blocks for a key this instance takes several times within a second, though the caller does not call it busy", async () => {
    let now = 0;
    const counter = new KvCounter((await nats.connect()).counters);
    const leased = new LeasedCounter(counter, () => now);
    for (let i = 0; i < 4; i++) await leased.take("burst", 100_000, false);
    expect(await counter.read("burst"), "the first takes one by one").to.equal(4);
    const fifth = await leased.take("burst", 100_000, false);
    expect(await counter.read("burst"), "then a block of 32").to.equal(4 + 32);
    expect(fifth.used).to.equal(5);
    await leased.close();
    expect(await counter.read("burst"), "the unused units given back").to.equal(5);
    // A take after more than a second starts a new window: one by one again.
    now += 1_100;
    await leased.take("burst", 100_000, false);
    expect(await counter.read("burst")).to.equal(6);
  });

  it("hands out exactly the limit to two instances whose own takes make a key busy", async () => {
    const limit = 640;
    const counters = [new KvCounter((await nats.connect()).counters), new KvCounter((await nats.connect()).counters)];
    const leased = counters.map((c) => new LeasedCounter(c));
    const outcomes = await Promise.all(Array.from({ length: 1000 }, (_, i) => leased[i % 2]!.take("fresh-burst", limit, false)));
    expect(outcomes.filter((o) => o.ok)).to.have.length(limit);
    expect(await counters[0]!.read("fresh-burst")).to.equal(limit);
    await Promise.all(leased.map((l) => l.close()));
    expect(await counters[0]!.read("fresh-burst")).to.equal(limit);
  });

  it("gives back the unused part of a block after a second without a take, and when it closes", async () => {
    const counter = new KvCounter((await nats.connect()).counters);
    const leased = new LeasedCounter(counter);
    await leased.take("idle", 100_000, false);
    const taken = await leased.take("idle", 100_000, true);
    expect(taken.ok).to.equal(true);
    expect(await counter.read("idle"), "one unit, then a block of 32").to.equal(1 + 32);
    expect(taken.used, "what the account has used, not what is reserved").to.equal(2);
    const deadline = Date.now() + 5_000;
    while ((await counter.read("idle")) !== 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await counter.read("idle"), "the 31 unused units given back").to.equal(2);

    await leased.take("closing", 100_000, false);
    await leased.take("closing", 100_000, true);
    await leased.close();
    expect(await counter.read("closing")).to.equal(2);
  });

  it("counts each submit of an account that is not busy on its own, so its usage is exact", async () => {
    const plan: Plan = {
      name: "big",
      apiAccess: true,
      maxNodes: 10,
      maxVehicles: 2,
      maxSolveSeconds: 5,
      submitsPerMinute: 100_000,
      monthlyQuota: 1_000_000,
      ...FAIR_SHARE_DEFAULTS,
    };
    // A submit every 1.1 s: never several within a second, so only the minute's count makes it busy.
    let now = Date.parse("2026-06-10T12:00:05Z");
    const admission = new Admission(new KvCounter((await nats.connect()).counters), clock, () => now);
    for (let i = 0; i < 31; i++) {
      now += 1_100;
      await admission.consumeRate("steady", plan);
      await admission.reserveQuota("steady", plan);
    }
    expect(await admission.usage("steady")).to.deep.equal({ minute: 31, month: 31 });
    // From the 32nd submit of the minute on, the account is busy: blocks are taken.
    await admission.consumeRate("steady", plan);
    await admission.consumeRate("steady", plan);
    const rate = await admission.consumeRate("steady", plan);
    await admission.reserveQuota("steady", plan);
    expect(rate.remaining).to.equal(plan.submitsPerMinute - 34);
    expect(await admission.usage("steady"), "blocks of 32 reserved").to.deep.equal({ minute: 32 + 32, month: 31 + 32 });
    await admission.close();
    expect(await admission.usage("steady")).to.deep.equal({ minute: 34, month: 32 });
    const refused = await admission.consumeRate("steady", { ...plan, submitsPerMinute: 34 }).then(
      () => null,
      (e: unknown) => (e as ApiError).code,
    );
    expect(refused).to.equal("rate_limit_exceeded");
  });
});
