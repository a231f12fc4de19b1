import { expect } from "chai";
import { FlowPuller } from "../../src/queue/flow-pull.js";
import { ensureFlow, flowConsumer, flowSubject } from "../../src/queue/flows.js";
import type { Nats } from "../../src/queue/connection.js";
import { FairPicker } from "../../src/worker/fair-picker.js";
import { FlowView } from "../../src/worker/flow-view.js";
import { quietLog, withNats } from "../helpers/nats.js";

const roomy = { name: "roomy", weight: 1, maxSolving: 10 };

async function publish(nats: Nats, key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await nats.js.publish(flowSubject(key), JSON.stringify({ taskId: `${key}-${i}` }));
}

describe("worker: the choice after a busy spell", function () {
  this.timeout(60_000);
  let nats: Awaited<ReturnType<typeof withNats>>;
  beforeEach(async () => {
    nats = await withNats();
  });
  afterEach(async () => {
    await nats.stop();
  });

  it("counts a flow as possibly queued once it was published to after the last list", async () => {
    const conn = await nats.connect();
    const [a, b] = ["61", "62"];
    await ensureFlow(conn.jsm, a, roomy, 30_000);
    await ensureFlow(conn.jsm, b, roomy, 30_000);
    const view = new FlowView(conn.jsm);
    await view.current();
    expect(view.nothingQueuedBesides(b), "nothing published since the list").to.equal(true);
    view.published(b);
    expect(view.nothingQueuedBesides(b), "only the flow itself published to").to.equal(true);
    view.published(a);
    expect(view.nothingQueuedBesides(b), "another flow published to").to.equal(false);
    view.invalidate();
    await view.current();
    expect(view.nothingQueuedBesides(b), "a list asked for after both publishes").to.equal(true);
  });

  it("takes a task another flow queued while it was busy when the task it last heard of went to another worker", async () => {
    const conn = await nats.connect();
    const [burst, single] = ["6275727374", "73696e676c65"];
    await ensureFlow(conn.jsm, burst, roomy, 30_000);
    await ensureFlow(conn.jsm, single, roomy, 30_000);
    const picker = new FairPicker(conn, quietLog);
    try {
      // Busy with a long task: the choice made ahead of its end finds nothing queued and waits.
      const ahead = picker.next(Promise.resolve(false));
      await new Promise((r) => setTimeout(r, 100));
      // Meanwhile one account queues tasks, then another queues one that another worker takes.
      await publish(conn, burst, 3);
      expect(await ahead, "nothing taken ahead of the long task's end").to.equal(null);
      await publish(conn, single, 1);
      const other = new FlowPuller(conn.nc);
      const takenElsewhere = await other.pull(flowConsumer(single), 5000);
      other.close();
      expect(takenElsewhere, "the other worker's task").to.be.an("object");

      // The long task ends: the first choice takes one of the queued tasks rather than waiting.
      const m = await picker.next();
      expect(m?.info.consumer, "the first choice after the busy spell").to.equal(flowConsumer(burst));
      m?.ack();
    } finally {
      picker.stop();
    }
  });
});
