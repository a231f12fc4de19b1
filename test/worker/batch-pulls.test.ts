import { expect } from "chai";
import type { JsMsg } from "@nats-io/jetstream";
import type { Nats } from "../../src/queue/connection.js";
import { batchAllowance, candidateOrder, chargeAll, EMPTY_SCHEDULE, passOf, type Schedule } from "../../src/queue/fair-share.js";
import { FlowPuller } from "../../src/queue/flow-pull.js";
import { ensureFlow, flowConsumer, flowSubject, type FlowState } from "../../src/queue/flows.js";
import { NAMES } from "../../src/queue/names.js";
import { FairPicker } from "../../src/worker/fair-picker.js";
import { quietLog, withNats } from "../helpers/nats.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function flow(key: string, weight: number, pending = 100, maxAckPending = 100, ackPending = 0): FlowState {
  return { key, consumer: `flow_${key}`, plan: key, weight, pending, ackPending, maxAckPending, delivered: 0 };
}

async function publish(nats: Nats, key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await nats.js.publish(flowSubject(key), JSON.stringify({ taskId: `${key}-${i}` }));
}

async function ackPending(nats: Nats, key: string): Promise<{ pending: number; ackPending: number }> {
  const info = await nats.jsm.consumers.info(NAMES.taskStream, flowConsumer(key));
  return { pending: info.num_pending, ackPending: info.num_ack_pending };
}

describe("worker: batch pulls within the fair order", function () {
  this.timeout(30_000);

  describe("batchAllowance", () => {
    it("takes a lone flow's tasks up to its queue, its room under max_solving and the batch limit", () => {
      expect(batchAllowance(flow("a", 1, 10), [], EMPTY_SCHEDULE, 4)).to.equal(4);
      expect(batchAllowance(flow("a", 1, 2), [], EMPTY_SCHEDULE, 4)).to.equal(2);
      expect(batchAllowance(flow("a", 1, 10, 3, 2), [], EMPTY_SCHEDULE, 4), "one place left").to.equal(1);
    });

    it("charges a batch from where its first task starts: the clock does not run past the other flows", () => {
      const before = chargeAll(EMPTY_SCHEDULE, [{ key: "a", weight: 1 }]);
      const batch = chargeAll(before, [{ key: "c", weight: 3, count: 4 }]);
      expect(batch.clock).to.equal(0);
      expect(passOf(batch, "a"), "a keeps its place").to.equal(1);
      expect(passOf(batch, "c")).to.be.closeTo(4 / 3, 1e-9);
    });

    it("never lets a batch put one account more than one task ahead of another, and keeps the weights' shares", () => {
      const flows = [flow("a", 1), flow("b", 1), flow("c", 3)];
      let schedule: Schedule = EMPTY_SCHEDULE;
      const served: Record<string, number> = { a: 0, b: 0, c: 0 };
      for (let pull = 0; pull < 300; pull++) {
        const chosen = candidateOrder(flows, schedule)[0]!;
        const batch = batchAllowance(chosen, flows, schedule, 4);
        expect(batch).to.be.within(1, 4);
        schedule = chargeAll(schedule, [{ key: chosen.key, weight: chosen.weight, count: batch }]);
        served[chosen.key]! += batch;
        // In virtual time, no account stands more than its own task and one of another's ahead
        // (one task at a time allows its own alone).
        const passes = flows.map((f) => passOf(schedule, f.key));
        expect(Math.max(...passes) - Math.min(...passes), JSON.stringify(served)).to.be.at.most(2 + 1e-9);
      }
      const total = served.a! + served.b! + served.c!;
      expect(served.c! / total).to.be.within(0.55, 0.65);
      expect(served.a! / served.b!).to.be.within(0.9, 1.1);
    });
  });

  describe("FairPicker", () => {
    let nats: Awaited<ReturnType<typeof withNats>>;
    beforeEach(async () => {
      nats = await withNats();
    });
    afterEach(async () => {
      await nats.stop();
    });

    it("takes a burst's tasks several per pull after quick tasks, and hands the held ones back once a task runs long", async () => {
      const conn = await nats.connect();
      const key = "6275727374";
      await ensureFlow(conn.jsm, key, { name: "roomy", weight: 1, maxSolving: 10 }, 30_000);
      await publish(conn, key, 6);
      const picker = new FairPicker(conn, quietLog);
      const other = new FlowPuller(conn.nc);
      try {
        let first: JsMsg | null = null;
        while (!first) first = await picker.next(Promise.resolve(true));
        // One pull took four: none of them is left for another worker to take twice.
        expect(await ackPending(conn, key)).to.deep.equal({ pending: 2, ackPending: 4 });
        const second = await picker.next(Promise.resolve(true));
        expect(second?.info.streamSequence).to.equal(first.info.streamSequence + 1);
        // The task before ran long: the two still held go back to the flow at once.
        expect(await picker.next(Promise.resolve(false))).to.equal(null);
        // The hand-back is a pair of naks the server applies on its own time: wait until only the two taken are out.
        const until = Date.now() + 5_000;
        while ((await ackPending(conn, key)).ackPending > 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        const again = await other.pullUpTo(flowConsumer(key), 2, 5000);
        expect(
          again === "timeout" ? again : again.map((m) => [m.seq - first.seq, m.info.deliveryCount]),
          "the held tasks, delivered again",
        ).to.deep.equal([
          [2, 2],
          [3, 2],
        ]);
        expect((await ackPending(conn, key)).pending, "the queue behind them untouched").to.equal(2);
      } finally {
        picker.stop();
        other.close();
      }
    });

    it("leaves a crashed worker's held tasks to be delivered again after ack_wait, to one worker", async () => {
      const crashed = await nats.connect();
      const survivor = await nats.connect();
      const key = "6372617368";
      await ensureFlow(crashed.jsm, key, { name: "roomy", weight: 1, maxSolving: 10 }, 1000);
      await publish(crashed, key, 4);
      const picker = new FairPicker(crashed, quietLog);
      let taken: JsMsg | null = null;
      while (!taken) taken = await picker.next(Promise.resolve(true));
      expect(await ackPending(crashed, key)).to.deep.equal({ pending: 0, ackPending: 4 });
      // The worker dies with one task in hand and three held: nothing is acknowledged or handed back.
      await crashed.close();
      const puller = new FlowPuller(survivor.nc);
      const redelivered: JsMsg[] = [];
      try {
        for (let i = 0; i < 50 && redelivered.length < 4; i++) {
          const got = await puller.pullUpTo(flowConsumer(key), 4, 2000, { expiresMs: 200, waitForMessage: true });
          if (got !== "timeout") redelivered.push(...got);
          for (const m of got === "timeout" ? [] : got) m.ack();
        }
      } finally {
        puller.close();
      }
      // Delivered again (a loaded machine may time a pull out and hand one back once more), each task once.
      expect(redelivered.every((m) => m.info.deliveryCount >= 2)).to.equal(true);
      expect(new Set(redelivered.map((m) => m.seq)).size, "each task once").to.equal(4);
      await sleep(1500);
      expect(await ackPending(survivor, key)).to.deep.equal({ pending: 0, ackPending: 0 });
    });
  });
});
