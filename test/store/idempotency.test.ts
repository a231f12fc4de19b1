import { expect } from "chai";
import { settleAdmission } from "../../src/api/idempotency-key.js";
import { AdmissionAbandoned, TaskStore, type TaskRecord } from "../../src/queue/task-store.js";
import { bodyFingerprint, IdempotencyStore, type ClaimOutcome } from "../../src/store/idempotency.js";
import { withNats } from "../helpers/nats.js";

function claimed(outcome: ClaimOutcome) {
  if (outcome.kind !== "claimed") throw new Error(`expected a claim, got ${outcome.kind}`);
  return outcome.claim;
}

/** The Idempotency-Key claims against a real nats-server, with a clock the test moves. */
describe("Idempotency-Key claims in NATS KV", function () {
  this.timeout(30_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let now = Date.parse("2026-11-23T10:00:00Z");
  let store: IdempotencyStore;
  let tasks: TaskStore;
  before(async () => {
    nats = await withNats();
    const conn = await nats.connect();
    store = new IdempotencyStore(conn.idempotency, () => now);
    tasks = new TaskStore(conn.tasks);
  });
  after(async () => {
    await nats?.stop();
  });

  it("fingerprints the JSON content, not its spelling", () => {
    expect(bodyFingerprint({ a: 1, b: [1, { c: 2, d: null }] })).to.equal(bodyFingerprint({ b: [1, { d: null, c: 2 }], a: 1 }));
    expect(bodyFingerprint({ a: 1 })).to.not.equal(bodyFingerprint({ a: 2 }));
    expect(bodyFingerprint([1, 2])).to.not.equal(bodyFingerprint([2, 1]));
  });

  it("lets exactly one of many concurrent claims win; the rest see it in use, then the stored acknowledgement", async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.claim("ann", "k1", "f1")));
    const winners = outcomes.filter((o) => o.kind === "claimed");
    expect(winners).to.have.length(1);
    expect(outcomes.filter((o) => o.kind === "in_use")).to.have.length(19);
    await claimed(winners[0]!).complete({ request_id: "r1" });
    expect(await store.claim("ann", "k1", "f1")).to.deep.equal({ kind: "replay", ack: { request_id: "r1" } });
    expect(await store.claim("ann", "k1", "f2")).to.deep.equal({ kind: "mismatch" });
    // Another account's identical key is its own.
    expect((await store.claim("bob", "k1", "f1")).kind).to.equal("claimed");
  });

  it("frees a released key for a fresh attempt, even with another body", async () => {
    await claimed(await store.claim("ann", "k2", "f1")).release();
    const again = claimed(await store.claim("ann", "k2", "f2"));
    await again.complete({ request_id: "r2" });
    expect(await store.claim("ann", "k2", "f2")).to.deep.equal({ kind: "replay", ack: { request_id: "r2" } });
  });

  it("lets a repeat take over a claim abandoned for a minute (its API instance died while admitting), and only once", async () => {
    const abandoned = claimed(await store.claim("ann", "k3", "f1"));
    expect((await store.claim("ann", "k3", "f1")).kind).to.equal("in_use");
    now += 61_000;
    const takeovers = await Promise.all([store.claim("ann", "k3", "f1"), store.claim("ann", "k3", "f1")]);
    expect(takeovers.map((t) => t.kind).sort()).to.deep.equal(["claimed", "in_use"]);
    // The dead instance's late release does not remove the new owner's claim.
    await abandoned.release();
    expect((await store.claim("ann", "k3", "f1")).kind).to.equal("in_use");
  });

  describe("a claim left pending by a submit that answered an error", () => {
    const task = (id: string): TaskRecord => {
      const at = new Date().toISOString();
      return {
        id,
        owner: "ann",
        channel: "direct",
        state: "queued",
        submittedAt: at,
        updatedAt: at,
        name: null,
        nodeNum: 4,
        vehicleNum: 1,
        objective: "min_total_distance",
        timeLimitSeconds: 1,
        strategy: null,
        callbackUrl: null,
        solveAttempts: 0,
      };
    };
    const admission = (requestId: string) => ({ requestId, settle: (id: string) => settleAdmission(tasks, id) });

    it("is taken over 2 s later when its task was never admitted, which then never can be", async () => {
      const first = "7b0c1f7e-0000-4000-8000-000000000001";
      claimed(await store.claim("ann", "k4", "f1", admission(first)));
      expect((await store.claim("ann", "k4", "f1", admission("7b0c1f7e-0000-4000-8000-000000000002"))).kind).to.equal("in_use");
      now += 2_500;
      expect((await store.claim("ann", "k4", "f1", admission("7b0c1f7e-0000-4000-8000-000000000003"))).kind).to.equal("claimed");
      // The first submit's late record write loses against the tombstone.
      let error: unknown = null;
      await tasks.admit(task(first)).catch((err: unknown) => (error = err));
      expect(error).to.be.instanceOf(AdmissionAbandoned);
    });

    it("answers the first submit's acknowledgement when its task was admitted after all", async () => {
      const first = "7b0c1f7e-0000-4000-8000-000000000011";
      claimed(await store.claim("ann", "k5", "f1", admission(first)));
      await tasks.admit(task(first));
      now += 2_500;
      const repeat = await store.claim("ann", "k5", "f1", admission("7b0c1f7e-0000-4000-8000-000000000012"));
      expect(repeat.kind).to.equal("replay");
      expect((repeat as { ack: { request_id: string } }).ack.request_id).to.equal(first);
      // Stored now: the next repeat is answered from the claim itself.
      expect(await store.claim("ann", "k5", "f1", admission("7b0c1f7e-0000-4000-8000-000000000013"))).to.deep.equal(repeat);
    });
  });
});
