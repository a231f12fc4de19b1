import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { evaluateRoute } from "../../strategies/core/evaluator.js";
import type { RouteSchedule } from "../../strategies/core/schedule-types.js";
import {
  arrivalAfter,
  arrivalOf,
  latestDepartureFor,
  legFunction,
  pathFunction,
  type TrafficSlots,
} from "../../strategies/core/traffic.js";
import { checkTravelResult, type TravelRequest, type TravelResult } from "../../checker/check-travel.js";

type Request = SolveRequestInput & ConstraintFields;

const slotsOf = (list: [number, number][]): TrafficSlots => ({
  start: Float64Array.from(list, ([s]) => s),
  factor: Float64Array.from(list, ([, f]) => f),
});

/** Slots from minute 0: 1 to 5 of them, factors between 0.5 and 3. */
const slotsArb = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 5, max: 30 })), { minLength: 0, maxLength: 4 })
  .chain((gaps) =>
    fc.tuple(fc.integer({ min: 5, max: 30 }), fc.constant(gaps)).map(([first, rest]) => {
      const list: [number, number][] = [[0, first / 10]];
      let at = 0;
      for (const [gap, factor] of rest) list.push([(at += gap), factor / 10]);
      return slotsOf(list);
    }),
  );

describe("traffic by time of day: the travel-time function", () => {
  const rush = slotsOf([
    [0, 1],
    [60, 2],
    [120, 1],
  ]);

  it("drives a leg through the slots at each one's pace", () => {
    expect(arrivalAfter(rush, 10, 20)).to.equal(30);
    // 10 base minutes before 60, the other 10 at twice the time.
    expect(arrivalAfter(rush, 50, 20)).to.equal(80);
    // 30 base minutes fill the rush hour (60 minutes), 10 more after it.
    expect(arrivalAfter(rush, 60, 40)).to.equal(130);
    expect(arrivalAfter(rush, -10, 5)).to.equal(-5);
  });

  it("never arrives earlier when it leaves later, and its inverse gives the departure back", () => {
    fc.assert(
      fc.property(
        slotsArb,
        fc.double({ min: -50, max: 900, noNaN: true }),
        fc.double({ min: 0, max: 300, noNaN: true }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        (slots, depart, base, later) => {
          const arrive = arrivalAfter(slots, depart, base);
          expect(arrive).to.be.at.least(depart + base * Math.min(...slots.factor) - 1e-9);
          expect(arrivalAfter(slots, depart + later, base)).to.be.at.least(arrive - 1e-9);
          expect(latestDepartureFor(slots, arrive, base)).to.be.closeTo(depart, 1e-7 * Math.max(1, Math.abs(depart)));
        },
      ),
      { numRuns: 400, seed: 61 },
    );
  });

  it("is the plain sum under one slot at factor 1, to the bit", () => {
    const flat = slotsOf([[0, 1]]);
    for (const [d, b] of [
      [0.1, 0.2],
      [17.3, 41.9],
      [1e6, 3.3],
    ] as const)
      expect(arrivalAfter(flat, d, b)).to.equal(d + b);
  });

  it("composes legs exactly into one piecewise linear function of the departure", () => {
    fc.assert(
      fc.property(
        slotsArb,
        fc.array(fc.double({ min: 0, max: 120, noNaN: true }), { minLength: 1, maxLength: 4 }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }),
        (slots, bases, from, shares) => {
          const to = from + 300;
          const path = pathFunction(slots, bases, from, to);
          const leg = legFunction(slots, bases[0]!, from, to);
          for (const share of shares) {
            const t = from + share * (to - from);
            const driven = bases.reduce((clock, base) => arrivalAfter(slots, clock, base), t);
            expect(arrivalOf(path, t)).to.be.closeTo(driven, 1e-6 * Math.max(1, driven));
            expect(arrivalOf(leg, t)).to.be.closeTo(arrivalAfter(slots, t, bases[0]!), 1e-6 * Math.max(1, driven));
          }
        },
      ),
      { numRuns: 300, seed: 62 },
    );
  });
});

/** Depot 0 and three customers on a line, 30 distance units apart, speed 1, one vehicle. */
function line(extra: Partial<Request> = {}): Request {
  const at = [0, 30, 60, 90];
  return {
    node_num: 4,
    vehicle_num: 1,
    distance_matrix: at.map((a) => at.map((b) => Math.abs(a - b))),
    start_nodes: [0],
    end_nodes: [0],
    node_demands: [0, 1, 1, 1],
    vehicles_capacity: [3],
    node_time_windows: [
      [0, 600],
      [0, 600],
      [0, 600],
      [0, 600],
    ],
    node_service_time: [0, 10, 10, 10],
    vehicle_speeds: [1],
    ...extra,
  } as Request;
}

describe("traffic by time of day: the shared evaluator", () => {
  const scheduleOf = (req: Request, route: number[]) => {
    const p = compileRequest(req).problem;
    const schedule: RouteSchedule = { nodes: [], arrive: [], leave: [], loads: [] };
    const score = evaluateRoute(p, 0, route, route.length, schedule);
    return { score, schedule };
  };

  it("times a route as without the field when every slot has factor 1", () => {
    const plain = scheduleOf(line(), [1, 2, 3]);
    const flat = scheduleOf(
      line({
        time_dependent_durations: [
          { start: 0, factor: 1 },
          { start: 50, factor: 1 },
        ],
      }),
      [1, 2, 3],
    );
    expect(flat.schedule.arrive).to.deep.equal(plain.schedule.arrive);
    expect(flat.score.durationMin).to.equal(plain.score.durationMin);
  });

  it("slows the legs driven in a rush hour and counts the lateness it causes", () => {
    const rush = {
      time_dependent_durations: [
        { start: 0, factor: 1 },
        { start: 40, factor: 2 },
        { start: 200, factor: 1 },
      ],
    };
    const { score, schedule } = scheduleOf(line({ ...rush }), [1, 2, 3]);
    // 0 -> 1 arrives at 30, leaves 40; 1 -> 2 at pace 2: 100, leaves 110; 2 -> 3: 170, leaves 180;
    // 3 -> 0: 20 minutes at pace 2 reach 200 with 80 base minutes left: 280.
    expect(schedule.arrive).to.deep.equal([0, 30, 100, 170, 280]);
    expect(score.durationMin).to.equal(280);
    const windows = line({ ...rush }).node_time_windows!.map((w, i) => (i === 3 ? [0, 150] : w));
    expect(scheduleOf(line({ ...rush, node_time_windows: windows }), [1, 2, 3]).score.lateMinutes).to.equal(20);
  });

  it("leaves later when the first window opens later, and no later than keeps the finish", () => {
    const rush = {
      time_dependent_durations: [
        { start: 0, factor: 1 },
        { start: 100, factor: 2 },
      ],
    };
    const windows = [
      [0, 600],
      [130, 600],
      [0, 600],
      [0, 600],
    ];
    const { score, schedule } = scheduleOf(line({ ...rush, node_time_windows: windows }), [1, 2, 3]);
    // Leaving at 0 waits at node 1 until 130; the latest departure arriving by 130 leaves at 85
    // (15 base minutes before 100, 15 more at pace 2).
    expect(score.departureMin).to.be.closeTo(85, 1e-9);
    expect(schedule.arrive[1]).to.be.closeTo(130, 1e-9);
    expect(score.durationMin).to.be.closeTo(schedule.arrive[4]! - 85, 1e-9);
  });
});

describe("traffic by time of day: solving", function () {
  this.timeout(120_000);

  it("hgs and exact answers pass the independent travel checker, driving minutes included", () => {
    const rush = [
      { start: 0, factor: 1 },
      { start: 45, factor: 1.8 },
      { start: 150, factor: 1 },
    ];
    for (const strategy of ["hgs", "exact"]) {
      const req = line({
        time_dependent_durations: rush,
        vehicle_num: 2,
        start_nodes: [0, 0],
        end_nodes: [0, 0],
        vehicles_capacity: [2, 2],
        vehicle_speeds: [1, 1],
      });
      const outcome = solveRequest(req, { requestId: "traffic", timeLimitSeconds: 1, maxIterations: 100, strategy });
      expect(outcome.status, JSON.stringify(outcome).slice(0, 400)).to.equal("solved");
      if (outcome.status !== "solved") continue;
      checkTravelResult(req as TravelRequest, outcome.result as TravelResult);
    }
  });
});

describe("traffic by time of day: the pre-check", () => {
  const late = line({
    node_time_windows: [
      [0, 600],
      [0, 25],
      [0, 600],
      [0, 600],
    ],
  });

  it("proves a window unreachable only at the fastest slot's pace", () => {
    // 30 minutes at factor 1 miss [0, 25]; at the fastest slot's 0.5 they would not.
    expect(infeasibilities(compileRequest(late).problem).map((f) => [f.kind, f.node])).to.deep.equal([["window_unreachable", 1]]);
    const fast = {
      ...late,
      time_dependent_durations: [
        { start: 0, factor: 1 },
        { start: 300, factor: 0.5 },
      ],
    };
    expect(infeasibilities(compileRequest(fast).problem)).to.deep.equal([]);
    const slow = { ...late, time_dependent_durations: [{ start: 0, factor: 1.5 }] };
    expect(infeasibilities(compileRequest(slow).problem).map((f) => [f.kind, f.node])).to.deep.equal([["window_unreachable", 1]]);
  });
});
