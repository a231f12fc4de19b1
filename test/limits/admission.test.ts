import { expect } from "chai";
import { ApiError } from "../../src/errors/api-error.js";
import { FAIR_SHARE_DEFAULTS, type Plan } from "../../src/config/plans.js";
import { Admission, rateLimitHeaders, type Clock } from "../../src/limits/admission.js";
import { KvCounter } from "../../src/limits/kv-counter.js";
import { withNats } from "../helpers/nats.js";

const plan: Plan = {
  name: "test",
  apiAccess: true,
  maxNodes: 10,
  maxVehicles: 2,
  maxSolveSeconds: 5,
  submitsPerMinute: 20,
  monthlyQuota: 20,
  ...FAIR_SHARE_DEFAULTS,
};

class FakeClock implements Clock {
  constructor(public time: Date) {}
  now(): Date {
    return this.time;
  }
}

describe("admission counters in NATS KV", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  before(async () => {
    nats = await withNats();
  });
  after(async () => {
    await nats?.stop();
  });

  it("accepts exactly the limit out of 50 concurrent submits from two independent connections", async () => {
    const clock = new FakeClock(new Date("2026-03-10T12:00:05Z"));
    const [a, b] = [await nats.connect(), await nats.connect()];
    const instances = [new Admission(new KvCounter(a.counters), clock), new Admission(new KvCounter(b.counters), clock)];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        instances[i % 2]!.consumeRate("race", plan).then(
          () => "ok",
          (e: unknown) => (e as ApiError).code,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "ok")).to.have.length(20);
    expect(outcomes.filter((o) => o === "rate_limit_exceeded")).to.have.length(30);
  });

  it("rolls the per-minute window over at the minute boundary and says when", async () => {
    const clock = new FakeClock(new Date("2026-03-10T12:01:50Z"));
    const admission = new Admission(new KvCounter((await nats.connect()).counters), clock);
    for (let i = 0; i < plan.submitsPerMinute; i++) await admission.consumeRate("roller", plan);
    const err = await admission.consumeRate("roller", plan).then(
      () => null,
      (e: unknown) => e as ApiError,
    );
    expect(err?.code).to.equal("rate_limit_exceeded");
    expect(err?.extra.retryAfterSeconds).to.equal(10);
    expect(err?.extra.headers?.["RateLimit"]).to.equal('"default";r=0;t=10');
    clock.time = new Date("2026-03-10T12:02:00Z");
    const state = await admission.consumeRate("roller", plan);
    expect(state.remaining).to.equal(plan.submitsPerMinute - 1);
  });

  it("counts the monthly quota, gives back released reservations, and resets next month", async () => {
    const clock = new FakeClock(new Date("2026-03-31T23:59:00Z"));
    const admission = new Admission(new KvCounter((await nats.connect()).counters), clock);
    for (let i = 0; i < plan.monthlyQuota; i++) await admission.reserveQuota("monthly", plan);
    const err = await admission.reserveQuota("monthly", plan).then(
      () => null,
      (e: unknown) => e as ApiError,
    );
    expect(err?.code).to.equal("monthly_quota_exceeded");
    expect(err?.message).to.include(String(plan.monthlyQuota));
    expect(err?.extra.retryAfterSeconds).to.equal(60);
    await admission.releaseQuota("monthly");
    await admission.reserveQuota("monthly", plan);
    clock.time = new Date("2026-04-01T00:00:00Z");
    await admission.reserveQuota("monthly", plan);
    expect((await admission.usage("monthly")).month).to.equal(1);
  });

  it("sees a reservation given back by another instance, though it remembers its own last write", async () => {
    const clock = new FakeClock(new Date("2026-05-10T12:00:00Z"));
    const [a, b] = [
      new Admission(new KvCounter((await nats.connect()).counters), clock),
      new Admission(new KvCounter((await nats.connect()).counters), clock),
    ];
    await Promise.all(Array.from({ length: plan.monthlyQuota }, () => a.reserveQuota("shared", plan)));
    const full = await a.reserveQuota("shared", plan).then(
      () => null,
      (e: unknown) => (e as ApiError).code,
    );
    expect(full).to.equal("monthly_quota_exceeded");
    await b.releaseQuota("shared");
    // `a` last saw the counter at the limit; its refusal must not rest on that memory.
    await a.reserveQuota("shared", plan);
    await b.reserveQuota("shared", plan).then(
      () => expect.fail("over quota"),
      (e: unknown) => expect((e as ApiError).code).to.equal("monthly_quota_exceeded"),
    );
    expect((await a.usage("shared")).month).to.equal(plan.monthlyQuota);
  });

  it("applies concurrent adds on one key in order, each against its own limit, in few writes", async () => {
    const conn = await nats.connect();
    let writes = 0;
    const counted = new Proxy(conn.counters, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (prop === "update" || prop === "create") writes++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const counter = new KvCounter(counted);
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => counter.add("mixed", 1, 5)),
      counter.add("mixed", 1, 5),
      counter.add("mixed", -1, Number.MAX_SAFE_INTEGER),
      counter.add("mixed", 1, 5),
    ]);
    expect(results.map((r) => r.ok)).to.deep.equal([true, true, true, true, true, false, true, true]);
    expect(await counter.read("mixed")).to.equal(5);
    // One write for the first add, one for the batch that queued behind it.
    expect(writes).to.equal(2);
  });

  it("formats the IETF RateLimit headers", () => {
    expect(rateLimitHeaders({ limit: 30, remaining: 7, resetSeconds: 12 })).to.deep.equal({
      RateLimit: '"default";r=7;t=12',
      "RateLimit-Policy": '"default";q=30;w=60',
    });
  });
});
