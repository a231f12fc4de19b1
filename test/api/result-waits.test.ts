import { expect } from "chai";
import { MAX_WAIT_SECONDS, readUntil, ResultWaits, waitSeconds } from "../../src/api/result-waits.js";
import type { Nats } from "../../src/queue/connection.js";
import { withNats } from "../helpers/nats.js";

/** Waiting polls against a real nats-server: the wake-up by a record write, the capacity, the release. */
describe("polls that wait: the waits of one API instance", function () {
  this.timeout(30_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  let conn: Nats;

  before(async () => {
    nats = await withNats();
    conn = await nats.connect();
  });
  after(async () => {
    await nats?.stop();
  });

  it("reads wait_seconds as a whole number from 0 to the maximum, anything else a 422 naming the parameter", () => {
    expect(waitSeconds(undefined)).to.equal(0);
    expect(waitSeconds("0")).to.equal(0);
    expect(waitSeconds(String(MAX_WAIT_SECONDS))).to.equal(MAX_WAIT_SECONDS);
    for (const bad of [String(MAX_WAIT_SECONDS + 1), "-1", "1.5", "", "ten", ["1", "2"]]) {
      expect(() => waitSeconds(bad), JSON.stringify(bad))
        .to.throw()
        .that.satisfies(
          (err: { status?: number; extra?: { detail?: { loc: string[] }[] } }) =>
            err.status === 422 && err.extra?.detail?.[0]?.loc.join(".") === "query.wait_seconds",
        );
    }
  });

  it("wakes a wait at its record's next write, and reads until the record says finished", async () => {
    const waits = new ResultWaits(conn.nc, 10);
    const id = "0b6b3c52-4a5f-4c8e-9d2f-6a1e5b7c8d90";
    await conn.tasks.put(id, JSON.stringify({ state: "solving" }));
    const wait = waits.begin(id)!;
    const started = performance.now();
    setTimeout(() => void conn.tasks.put(id, JSON.stringify({ state: "solved" })), 200);
    const reads: string[] = [];
    const last = await readUntil(
      wait,
      20,
      async () => {
        const entry = await conn.tasks.get(id);
        const state = (entry!.json() as { state: string }).state;
        reads.push(state);
        return state;
      },
      (state) => state === "solved",
    );
    wait.release();
    expect(last).to.equal("solved");
    expect(reads[0]).to.equal("solving");
    expect(performance.now() - started, "woken by the write, not at the wait's end").to.be.below(15_000);
    expect(waits.size).to.equal(0);

    // Without the recheck: a wait of a minute ends at the write.
    const alone = waits.begin(id)!;
    const woken = performance.now();
    setTimeout(() => void conn.tasks.put(id, JSON.stringify({ state: "failed" })), 100);
    await alone.next(60_000);
    alone.release();
    expect(performance.now() - woken).to.be.below(30_000);
  });

  it("holds at most its capacity, gives a place back on release, and ends every wait on releaseAll, starting none after", async () => {
    const waits = new ResultWaits(conn.nc, 2);
    const a = waits.begin("a")!;
    const b = waits.begin("b")!;
    expect(waits.begin("c"), "beyond the capacity").to.equal(null);
    a.release();
    const c = waits.begin("c");
    expect(c).not.to.equal(null);
    const held = [b.next(60_000), c!.next(60_000)];
    const started = performance.now();
    waits.releaseAll();
    await Promise.all(held);
    expect(performance.now() - started).to.be.below(1_000);
    expect(b.released && c!.released).to.equal(true);
    expect(waits.size).to.equal(0);
    expect(waits.begin("d"), "no new wait once stopping").to.equal(null);
  });
});
