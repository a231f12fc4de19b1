import { expect } from "chai";
import fc from "fast-check";
import { solveRequest } from "../../src/problem/solve-request.js";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

const allowAll = () => null;
const depotMessage = (node: number) =>
  `node ${node} is a depot (a start or end node) and cannot be in initial_routes: ` +
  "a route lists its customers only (its start and end nodes are implicit)";

/** Depot 0, customers 1..4; vehicle 1 ends at node 5 (a depot too). */
function base(extra: Partial<SolveRequestInput> = {}): SolveRequestInput {
  return {
    node_num: 6,
    vehicle_num: 2,
    node_positions: [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
      [5, 0],
    ],
    distance_matrix: [],
    start_nodes: [0, 0],
    end_nodes: [0, 5],
    node_demands: [0, 1, 1, 1, 1, 0],
    vehicles_capacity: [5, 5],
    ...extra,
  };
}

describe("validation of initial_routes, vehicle_locked_stops and evaluate only (422 messages and loc)", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });
  const issuesOf = (body: unknown) => {
    const outcome = validateSolveRequest(api, body, allowAll);
    return outcome.ok ? [] : outcome.issues.map((i) => ({ loc: i.loc.join("."), msg: i.msg, type: i.type }));
  };

  it("accepts a plan with locked heads, null and empty routes, and max_iterations 0 with a plan", () => {
    expect(issuesOf(base({ initial_routes: [[1, 2], null], vehicle_locked_stops: [2, 0], max_iterations: 0 }))).to.deep.equal([]);
    expect(issuesOf(base({ initial_routes: [[], [4, 3]], vehicle_locked_stops: [0, 1] }))).to.deep.equal([]);
    expect(issuesOf(base({ vehicle_locked_stops: [0, 0] }))).to.deep.equal([]);
  });

  it("names a node twice in the plan, within a route and across vehicles, with its first place", () => {
    expect(issuesOf(base({ initial_routes: [[1, 2, 1], [3]] }))).to.deep.equal([
      {
        loc: "body.initial_routes.0.2",
        msg: "node 1 appears twice in initial_routes (first at initial_routes[0][0])",
        type: "duplicate_node",
      },
    ]);
    expect(
      issuesOf(
        base({
          initial_routes: [
            [1, 2],
            [3, 2],
          ],
        }),
      ),
    ).to.deep.equal([
      {
        loc: "body.initial_routes.1.1",
        msg: "node 2 appears twice in initial_routes (first at initial_routes[0][1])",
        type: "duplicate_node",
      },
    ]);
  });

  it("refuses any vehicle's start or end node in the plan", () => {
    expect(issuesOf(base({ initial_routes: [[1, 5], [0]] }))).to.deep.equal([
      {
        loc: "body.initial_routes.0.1",
        msg: depotMessage(5),
        type: "depot_in_route",
      },
      {
        loc: "body.initial_routes.1.0",
        msg: depotMessage(0),
        type: "depot_in_route",
      },
    ]);
  });

  it("refuses an index out of range", () => {
    expect(issuesOf(base({ initial_routes: [[1], [9]] }))).to.deep.equal([
      { loc: "body.initial_routes.1.0", msg: "node index 9 is out of range (node_num is 6)", type: "index_out_of_range" },
    ]);
  });

  it("names both per-vehicle arrays of the wrong length", () => {
    expect(issuesOf(base({ initial_routes: [[1]], vehicle_locked_stops: [0, 0, 0] }))).to.deep.equal([
      { loc: "body.initial_routes", msg: "initial_routes must have vehicle_num (2) entries, got 1", type: "length_mismatch" },
      { loc: "body.vehicle_locked_stops", msg: "vehicle_locked_stops must have vehicle_num (2) entries, got 3", type: "length_mismatch" },
    ]);
  });

  it("refuses a locked count longer than its route", () => {
    expect(issuesOf(base({ initial_routes: [[1, 2], null], vehicle_locked_stops: [2, 1] }))).to.deep.equal([
      {
        loc: "body.vehicle_locked_stops.1",
        msg: "vehicle 1 locks 1 stop(s) but its initial route has 0: vehicle_locked_stops[1] must be at most 0",
        type: "value_error",
      },
    ]);
  });

  it("refuses locked stops without initial_routes", () => {
    expect(issuesOf(base({ vehicle_locked_stops: [1, 0] }))).to.deep.equal([
      {
        loc: "body.vehicle_locked_stops",
        msg: "vehicle_locked_stops needs initial_routes: the locked stops are the first stops of each vehicle's initial route",
        type: "missing_dependency",
      },
    ]);
  });

  it("refuses a reassignment cost without initial_routes, and a negative one by the schema", () => {
    expect(issuesOf(base({ reassignment_cost: 10 }))).to.deep.equal([
      {
        loc: "body.reassignment_cost",
        msg: "reassignment_cost needs initial_routes: it prices serving a stop of the given plan on another vehicle than the plan's",
        type: "missing_dependency",
      },
    ]);
    expect(issuesOf(base({ reassignment_cost: -1, initial_routes: [[1], [2]] })).map((i) => i.loc)).to.deep.equal([
      "body.reassignment_cost",
    ]);
    expect(issuesOf(base({ reassignment_cost: 0, initial_routes: [[1], [2]] }))).to.deep.equal([]);
  });

  it("refuses a locked stop its vehicle lacks the skills for, but not an unlocked one", () => {
    const skills = { node_skills: [null, ["cold"], null, ["cold", "lift"], null, null], vehicle_skills: [["cold"], []] };
    expect(issuesOf(base({ ...skills, initial_routes: [[1, 3], [2]], vehicle_locked_stops: [2, 1] }))).to.deep.equal([
      {
        loc: "body.initial_routes.0.1",
        msg: 'node 3 is locked on vehicle 0 (vehicle_locked_stops), which lacks the skill(s) it needs: ["lift"]',
        type: "skills_mismatch",
      },
    ]);
    expect(issuesOf(base({ ...skills, initial_routes: [[1, 3], [2]], vehicle_locked_stops: [1, 1] }))).to.deep.equal([]);
  });

  it("refuses max_iterations 0 without a plan, and a negative one by the schema", () => {
    expect(issuesOf(base({ max_iterations: 0 }))).to.deep.equal([
      {
        loc: "body.max_iterations",
        msg:
          "max_iterations 0 evaluates initial_routes without searching, but initial_routes is missing: " +
          "give the plan to evaluate, or at least 1 iteration",
        type: "missing_dependency",
      },
    ]);
    expect(issuesOf(base({ max_iterations: -1, initial_routes: [[1], []] })).map((i) => i.loc)).to.deep.equal(["body.max_iterations"]);
  });

  it("never lets a plan through that the solver cannot take: random plans are refused or solved, never thrown", () => {
    // Customers 1..4 split over the two vehicles, now and then with one more entry that may be a
    // customer again, a depot (0, 5) or out of range (6, 7), and now and then a third route.
    const plans = fc
      .record({
        order: fc.shuffledSubarray([1, 2, 3, 4]),
        cut: fc.integer({ min: 0, max: 4 }),
        extra: fc.option(fc.integer({ min: 0, max: 7 }), { nil: undefined, freq: 2 }),
        third: fc.integer({ min: 0, max: 5 }).map((x) => x === 0),
        locked: fc.option(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })), { nil: undefined }),
        evaluate: fc.boolean(),
      })
      .map(({ order, cut, extra, third, locked, evaluate }) => {
        const routes: (number[] | null)[] = [order.slice(0, cut), order.slice(cut)];
        if (extra !== undefined) routes[1]!.push(extra);
        if (third) routes.push(null);
        return { routes, locked, evaluate };
      });
    let validCount = 0;
    let solvedCount = 0;
    fc.assert(
      fc.property(plans, ({ routes, locked, evaluate }) => {
        const body = base({
          initial_routes: routes,
          ...(locked ? { vehicle_locked_stops: locked } : {}),
          max_iterations: evaluate ? 0 : 20,
        });
        const outcome = validateSolveRequest(api, body, allowAll);
        if (!outcome.ok) return;
        validCount++;
        const solved = solveRequest(outcome.request, { requestId: "plan-fuzz", timeLimitSeconds: 1 });
        if (solved.status === "solved") {
          solvedCount++;
          const served = Object.values(solved.result.routes).map((r) => r.slice(1, -1));
          (locked ?? []).forEach((k, v) => {
            if (k > 0) expect(solved.result.routes[`Vehicle ${v}`]!.slice(1, k + 1)).to.deep.equal(routes[v]!.slice(0, k));
          });
          if (evaluate) expect(served.flat().sort()).to.deep.equal(routes.flatMap((r) => r ?? []).sort());
        } else expect(solved.error).to.be.a("string").and.not.equal("");
      }),
      { numRuns: 300, seed: 37 },
    );
    expect(validCount, "plans that passed validation").to.be.greaterThan(50);
    expect(solvedCount, "plans that were solved").to.be.greaterThan(20);
  });
});
