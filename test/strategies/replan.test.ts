import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import { withoutDust } from "../../src/problem/message-numbers.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { judgeSolution } from "../../src/problem/route-rules.js";
import { solveRequest, type SolveOutcome } from "../../src/problem/solve-request.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import type { Solution } from "../../strategies/core/problem.js";
import type { Strategy } from "../../strategies/core/strategy.js";
import { registerStrategy } from "../../strategies/registry.js";
import { fleetArb, fleetInstance } from "./fleet-problems.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { expectLocksKept, withRandomPlan, type PlanRequest } from "./replan-problems.js";

/** The customers of each vehicle's route in a solved result (labels "Vehicle v"). */
function planOf(req: SolveRequestInput, outcome: SolveOutcome): number[][] {
  expect(outcome.status, outcome.status === "failed" ? outcome.error : "").to.equal("solved");
  const routes = (outcome as Extract<SolveOutcome, { status: "solved" }>).result.routes;
  return Array.from({ length: req.vehicle_num }, (_, v) => (routes[`Vehicle ${v}`] ?? [0, 0]).slice(1, -1));
}

const costOf = (outcome: SolveOutcome) => (outcome as Extract<SolveOutcome, { status: "solved" }>).result.total_cost;
const solve = (req: SolveRequestInput, seed: number, maxIterations: number, strategy?: string) =>
  solveRequest(req, { requestId: "replan", timeLimitSeconds: 20, seed, maxIterations, ...(strategy ? { strategy } : {}) });

/**
 * A feasible plan of a random problem (a short solve's answer), the first stops of some of its
 * routes locked, and a random share of its unlocked customers left out for the solver to insert.
 */
function replanCase(
  o: Parameters<typeof fleetInstance>[0],
  seed: number,
  dropShare: number,
): { req: PlanRequest; plan: number[][] } | null {
  const req = fleetInstance(o);
  const first = solve(req, seed, 60);
  if (first.status !== "solved") return null;
  const plan = planOf(req, first);
  let s = seed;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const locked = plan.map((r) => (r.length > 0 && rand() < 0.7 ? Math.floor(rand() * (r.length + 1)) : 0));
  const initial = plan.map((r, v) => r.filter((_, k) => k < locked[v]! || rand() >= dropShare));
  return { req: { ...req, initial_routes: initial, vehicle_locked_stops: locked }, plan };
}

describe("re-planning: warm start, locked stops and evaluate only", function () {
  this.timeout(300_000);

  it("keeps locked stops in place across random problems and seeds, and serves every customer", () => {
    let checked = 0;
    fc.assert(
      fc.property(fleetArb("hard", 14), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const c = replanCase(o, seed, 0.3);
        fc.pre(c !== null);
        const out = solve(c!.req, seed, 150);
        const p = compileRequest(c!.req).problem;
        const routes = planOf(c!.req, out);
        expectLocksKept(p, routes, `seed ${seed}`);
        const score = evaluateSolution(p, { routes });
        expect(judgeSolution(p, { routes }, score).feasible).to.equal(true);
        expect(costOf(out)).to.equal(withoutDust(score.cost));
        checked++;
      }),
      { numRuns: 30, seed: 5 },
    );
    expect(checked).to.be.greaterThan(15);
  });

  it("never answers a plan costlier than a feasible given one (every customer in it)", () => {
    fc.assert(
      fc.property(fleetArb(fc.sample(fc.constantFrom("none", "hard", "soft"), 1)[0]!, 14), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const c = replanCase(o, seed, 0);
        fc.pre(c !== null);
        const p = compileRequest(c!.req).problem;
        const given = evaluateSolution(p, { routes: c!.req.initial_routes });
        fc.pre(judgeSolution(p, { routes: c!.req.initial_routes }, given).feasible);
        const out = solve(c!.req, seed + 1, 20);
        expect(costOf(out)).to.be.at.most(withoutDust(given.cost));
        expectLocksKept(p, planOf(c!.req, out), "warm start");
      }),
      { numRuns: 25, seed: 9 },
    );
  });

  it("answers the given plan when a strategy's own answer costs more (the guard holds for plugins too)", () => {
    // A stand-in plugin that answers the given plan with one stop moved to its costliest place in its route.
    const worse: Strategy = {
      name: "replan-test-worse",
      kind: "search",
      features: ["capacities"],
      supports: () => ({ ok: true }),
      solve(p, _budget, initial?: Solution) {
        const routes = initial!.routes.map((r) => r.slice());
        let worst = routes;
        let worstCost = evaluateSolution(p, { routes }).cost;
        routes.forEach((r, v) =>
          r.forEach((_, from) =>
            r.forEach((__, to) => {
              const moved = routes.map((x) => x.slice());
              moved[v]!.splice(to, 0, moved[v]!.splice(from, 1)[0]!);
              const score = evaluateSolution(p, { routes: moved });
              if (score.feasible && score.cost > worstCost) [worst, worstCost] = [moved, score.cost];
            }),
          ),
        );
        return { routes: worst };
      },
    };
    registerStrategy(worse);
    const base = fleetInstance({
      customers: 12,
      types: 1,
      depots: 1,
      mixedEnds: false,
      asymmetric: false,
      cost: false,
      time: "none",
      hours: false,
      speeds: false,
      seed: 17,
    });
    const plan = planOf(base, solve(base, 1, 200));
    const req = { ...base, initial_routes: plan };
    const p = compileRequest(req).problem;
    const given = withoutDust(evaluateSolution(p, { routes: plan }).cost);
    const own = worse.solve(p, undefined as never, { routes: plan });
    expect(evaluateSolution(p, own).cost, "the stand-in answers a costlier plan").to.be.greaterThan(given + 1e-6);
    const out = solve(req, 1, 10, worse.name);
    expect(costOf(out)).to.equal(given);
    expect(planOf(req, out)).to.deep.equal(plan);
  });

  it("declines locked stops for strategies that do not claim them, and selects hgs for them", () => {
    const c = replanCase(
      {
        customers: 10,
        types: 1,
        depots: 1,
        mixedEnds: false,
        asymmetric: false,
        cost: false,
        time: "none",
        hours: false,
        speeds: false,
        seed: 4,
      },
      3,
      0,
    )!;
    c.req.vehicle_locked_stops = c.req.initial_routes.map((r) => Math.min(1, r.length));
    for (const name of ["alns", "clarke-wright", "large", "replan-test-worse"]) {
      const out = solve(c.req, 1, 10, name);
      expect(out.status, name).to.equal("failed");
      if (out.status === "failed") expect(out.code).to.equal("strategy_declined");
    }
    const auto = solve({ ...c.req, node_positions: undefined } as SolveRequestInput, 1, 50);
    if (auto.status === "solved") expect(auto.result.strategy).to.equal("hgs");
    else expect.fail(auto.error);
  });

  it("evaluate only answers exactly the given plan at the evaluator's cost, to the last digit", () => {
    fc.assert(
      fc.property(fleetArb(fc.sample(fc.constantFrom("none", "hard", "soft"), 1)[0]!, 12), fc.integer({ min: 1, max: 1e6 }), (o, seed) => {
        const req = withRandomPlan(fleetInstance(o), seed);
        const p = compileRequest(req).problem;
        const score = evaluateSolution(p, { routes: req.initial_routes });
        const out = solve({ ...req, max_iterations: 0 } as SolveRequestInput, seed, 0);
        if (out.status === "solved") {
          expect(score.feasible).to.equal(true);
          expect(out.result.total_cost).to.equal(withoutDust(score.cost));
          expect(out.result.total_distance).to.equal(withoutDust(score.distance));
          expect(out.result.iterations).to.equal(0);
          expect(out.result.strategy).to.equal("evaluate");
          expect(planOf(req, out)).to.deep.equal(req.initial_routes);
        } else {
          expect(score.feasible).to.equal(false);
          expect(out.error).to.match(/^The given plan \(initial_routes\) is infeasible: /);
          expect(out.diagnostics.length).to.be.greaterThan(0);
        }
      }),
      { numRuns: 150, seed: 3 },
    );
  });

  it("the evaluator, the service's judgement and the result checker refuse a broken lock", () => {
    const line = Array.from({ length: 6 }, (_, i) => [i, 0]);
    const req = {
      node_num: 6,
      vehicle_num: 2,
      node_positions: line,
      distance_matrix: [],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: [0, 1, 1, 1, 1, 1],
      vehicles_capacity: [10, 10],
      node_skip_penalties: [null, 5, 5, 5, 5, 5],
      initial_routes: [[1, 2], [3]],
      vehicle_locked_stops: [2, 1],
    } as SolveRequestInput;
    const p = compileRequest(req).problem;
    const kept = {
      routes: [
        [1, 2, 4],
        [3, 5],
      ],
    };
    expect(evaluateSolution(p, kept).feasible).to.equal(true);
    for (const broken of [
      [
        [2, 1, 4],
        [3, 5],
      ],
      [
        [1, 2, 4],
        [5, 3],
      ],
      [[1], [3, 2, 4, 5]],
      [
        [1, 2, 3],
        [4, 5],
      ],
      [
        [4, 1, 2],
        [3, 5],
      ],
    ]) {
      const score = evaluateSolution(p, { routes: broken });
      expect(score.feasible, JSON.stringify(broken)).to.equal(false);
      expect(judgeSolution(p, { routes: broken }, score).feasible, JSON.stringify(broken)).to.equal(false);
    }
    // A plugin that claims locked stops but breaks them: the service answers the given plan instead.
    const breaker: Strategy = {
      name: "replan-test-breaks-locks",
      kind: "search",
      features: ["capacities", "optional_stops", "locked_stops"],
      supports: () => ({ ok: true }),
      solve: () => ({ routes: [[5, 4, 3, 2, 1], []] }),
    };
    registerStrategy(breaker);
    const out = solve(req, 1, 10, breaker.name);
    expectLocksKept(p, planOf(req, out), "the plugin's answer");
    const result = (out as Extract<SolveOutcome, { status: "solved" }>).result;
    checkDistanceResult(req as never, result as never);
    const forged = { ...result, routes: { "Vehicle 0": [0, 2, 1, 0], "Vehicle 1": [0, 3, 0] } };
    expect(() => checkDistanceResult(req as never, forged as never)).to.throw(/Vehicle 0 begins with its locked stops/);
  });

  it("the pre-check proves a locked head infeasible: over capacity, or late under hard windows", () => {
    const line = Array.from({ length: 5 }, (_, i) => [i * 10, 0]);
    const req = {
      node_num: 5,
      vehicle_num: 2,
      node_positions: line,
      distance_matrix: [],
      start_nodes: [0, 0],
      end_nodes: [0, 0],
      node_demands: [0, 4, 4, 1, 1],
      vehicles_capacity: [6, 6],
      node_time_windows: [
        [0, 500],
        [0, 500],
        [0, 500],
        [0, 35],
        [0, 500],
      ],
      node_service_time: [0, 0, 0, 0, 0],
      vehicle_speeds: [1, 1],
      initial_routes: [
        [1, 2],
        [4, 3],
      ],
      vehicle_locked_stops: [2, 2],
    } as SolveRequestInput;
    const p = compileRequest(req).problem;
    const found = infeasibilities(p, undefined, req).filter((i) => i.kind === "locked_stops_infeasible");
    expect(found.map((i) => i.message)).to.deep.equal([
      "vehicle 0's 2 locked stop(s) need 8 against its capacity 6, 2 over",
      "vehicle 1 reaches its locked stop 3 at 50 at the earliest, 15 min after its time window closes at 35",
    ]);
    expect(found[1]!.evidence).to.deep.equal({ vehicle: "Vehicle 1", locked_stops: 2, earliest_arrival: 50, window_end: 35, late_by: 15 });
    const out = solve(req, 1, 10);
    expect(out.status).to.equal("failed");
    // Unlocked, the same plan is only a start: the solver may reorder it.
    expect(infeasibilities(compileRequest({ ...req, vehicle_locked_stops: [0, 0] }).problem)).to.deep.equal([]);
  });
});
