import { expect } from "chai";
import { trafficBands, trafficSlotsOf } from "../../playground/src/traffic-view.js";
import type { SolveRequest } from "../../playground/src/types.js";

describe("route playground: traffic slots on the timeline", () => {
  const request = {
    time_dependent_durations: [
      { start: 0, factor: 1 },
      { start: 60, factor: 1.6 },
      { start: 180, factor: 1 },
      { start: 600, factor: 0.8 },
    ],
  } as unknown as SolveRequest;

  it("reads each slot until the next one starts, the last until the end of the day", () => {
    expect(trafficSlotsOf(request)).to.deep.equal([
      { start: 0, end: 60, factor: 1 },
      { start: 60, end: 180, factor: 1.6 },
      { start: 180, end: 600, factor: 1 },
      { start: 600, end: Number.POSITIVE_INFINITY, factor: 0.8 },
    ]);
    expect(trafficSlotsOf({} as SolveRequest)).to.deep.equal([]);
  });

  it("bands the slots that change the pace, clipped to the axis, as shares of its width", () => {
    const bands = trafficBands(trafficSlotsOf(request), { from: 30, to: 630 });
    expect(bands.map((b) => [b.slot.factor, b.left, b.width])).to.deep.equal([
      [1.6, 30 / 600, 120 / 600],
      [0.8, 570 / 600, 30 / 600],
    ]);
    expect(trafficBands(trafficSlotsOf(request), { from: 200, to: 500 })).to.deep.equal([]);
  });
});
