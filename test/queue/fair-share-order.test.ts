import { expect } from "chai";
import { candidateOrder, charge, EMPTY_SCHEDULE } from "../../src/queue/fair-share.js";
import type { FlowState } from "../../src/queue/flows.js";

function flow(key: string, weight: number, pending: number, ackPending: number): FlowState {
  return { key, consumer: `flow_${key}`, plan: key, weight, pending, ackPending, maxAckPending: 8, delivered: ackPending };
}

describe("fair shares: the order of the flows to try", () => {
  it("puts the lowest pass first, whatever runs", () => {
    const schedule = charge(EMPTY_SCHEDULE, "a", 4);
    const order = candidateOrder([flow("a", 4, 10, 0), flow("b", 2, 1, 3)], schedule);
    expect(order.map((f) => f.key)).to.deep.equal(["b", "a"]);
  });

  it("at equal passes puts the flow with fewer tasks in workers' hands first, then the key", () => {
    // Both accounts new to the competition (an idle service's tasks are not charged): the one
    // with nothing running comes first, though its key sorts after the other's.
    const busy = flow("a", 4, 10, 2);
    const waiting = flow("b", 2, 1, 0);
    expect(candidateOrder([busy, waiting], EMPTY_SCHEDULE).map((f) => f.key)).to.deep.equal(["b", "a"]);
    expect(candidateOrder([flow("b", 2, 1, 0), flow("a", 4, 10, 0)], EMPTY_SCHEDULE).map((f) => f.key)).to.deep.equal(["a", "b"]);
  });

  it("tries flows whose tasks are all in workers' hands last, for a redelivery", () => {
    const order = candidateOrder([flow("held", 1, 0, 2), flow("queued", 1, 3, 5)], EMPTY_SCHEDULE);
    expect(order.map((f) => f.key)).to.deep.equal(["queued", "held"]);
  });
});
