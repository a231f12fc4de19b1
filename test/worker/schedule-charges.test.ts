import { expect } from "chai";
import { FairScheduleStore } from "../../src/queue/fair-schedule-store.js";
import { candidateOrder, chargeAll, EMPTY_SCHEDULE, passOf, type Charge } from "../../src/queue/fair-share.js";
import type { FlowState } from "../../src/queue/flows.js";
import { ScheduleCharges } from "../../src/worker/schedule-charges.js";
import { quietLog, withNats } from "../helpers/nats.js";

function flow(key: string, weight: number): FlowState {
  return { key, consumer: `flow_${key}`, plan: key, weight, pending: 1000, ackPending: 0, maxAckPending: 1000, delivered: 0 };
}

describe("worker: fair-share charges written in batches", function () {
  this.timeout(30_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  beforeEach(async () => {
    nats = await withNats();
  });
  afterEach(async () => {
    await nats.stop();
  });

  it("writes a burst of charges in a few writes, and the stored schedule counts every one", async () => {
    const conn = await nats.connect();
    const store = new FairScheduleStore(conn.fairShare);
    const charges = new ScheduleCharges(store, quietLog, 1000);
    charges.seen(await store.read());
    const taken: Charge[] = [];
    for (let i = 0; i < 30; i++) {
      const c = { key: ["a", "b", "c"][i % 3]!, weight: 1 + (i % 3) };
      taken.push(c);
      charges.add(c.key, c.weight);
      // The worker's own choices see its charges at once, written or not.
      expect(charges.fresh(60_000)?.schedule).to.deep.equal(chargeAll(EMPTY_SCHEDULE, taken));
    }
    expect(charges.unwritten(), "charges wait for the interval").to.be.greaterThan(0);
    await charges.flush();
    expect(charges.unwritten()).to.equal(0);
    const stored = await store.read();
    expect(stored.schedule).to.deep.equal(chargeAll(EMPTY_SCHEDULE, taken));
    // The first charge at once, the other 29 together.
    expect(stored.revision).to.equal(2);
  });

  it("keeps the weights' shares between two workers choosing from their own batched views", async () => {
    const [c1, c2] = [await nats.connect(), await nats.connect()];
    const workers = [c1, c2].map((c) => {
      const store = new FairScheduleStore(c.fairShare);
      return { store, charges: new ScheduleCharges(store, quietLog, 20) };
    });
    const flows = [flow("light", 1), flow("heavy", 3)];
    const served = { light: 0, heavy: 0 };
    // Each worker takes the next task as FairPicker does: from its own view while fresh, else a read.
    const takeOne = async (w: (typeof workers)[number]) => {
      await w.charges.settled();
      const view = w.charges.fresh(100) ?? w.charges.seen(await w.store.read());
      const chosen = candidateOrder(flows, view.schedule)[0]!;
      served[chosen.key as keyof typeof served]++;
      w.charges.add(chosen.key, chosen.weight);
    };
    for (let round = 0; round < 200; round++) {
      await Promise.all(workers.map(takeOne));
      if (round % 10 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(workers.map((w) => w.charges.flush()));
    expect(served.light + served.heavy).to.equal(400);
    expect(served.heavy / served.light).to.be.within(2.7, 3.3);
    // Every charge reached the store: each pass at least where its flow's tasks put it (a flow that
    // fell behind the clock starts again from it, so a pass may stand further).
    const stored = await workers[0]!.store.read();
    const light = passOf(stored.schedule, "light");
    const heavy = passOf(stored.schedule, "heavy");
    expect(light).to.be.at.least(served.light - 1e-6);
    expect(heavy).to.be.at.least(served.heavy / 3 - 1e-6);
  });
});
