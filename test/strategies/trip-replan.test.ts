import { expect } from "chai";
import fc from "fast-check";
import { compileRequest } from "../../src/problem/compile-request.js";
import { withoutDust } from "../../src/problem/message-numbers.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { judgeSolution } from "../../src/problem/route-rules.js";
import { solveRequest, type SolveOutcome } from "../../src/problem/solve-request.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { Rng } from "../../strategies/core/rng.js";
import { recreate, ruin } from "../../strategies/ils/ruin-recreate.js";
import { LocalSearch } from "../../strategies/search/local-search.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import { Routes } from "../../strategies/search/routes.js";
import { copiesOf, expandTrips } from "../../strategies/search/trip-copies.js";
import { withPlanRules } from "../../strategies/search/trip-plans.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { expectLocksKept } from "./replan-problems.js";
import { penaltyArb, scratchPrice, tripArb, tripRequest, type TripOptions } from "./trip-problems.js";

type Solved = Extract<SolveOutcome, { status: "solved" }>["result"];

const solve = (req: SolveRequestInput, seed: number, maxIterations: number) =>
  solveRequest(req, { requestId: "trip-replan", timeLimitSeconds: 20, seed, maxIterations });

/** Each vehicle's stops in a result, reload stops included (its route without start and end nodes). */
const stopsOf = (req: SolveRequestInput, result: Solved) =>
  Array.from({ length: req.vehicle_num }, (_, v) => (result.routes[`Vehicle ${v}`] ?? [0, 0]).slice(1, -1));

/**
 * A multi-trip plan to re-plan: a short solve's answer (reload stops in it), the head of some
 * routes locked (reload stops among them), a reassignment cost, and a third of the unlocked
 * customers left out as new orders would be. Null when the random fleet has no feasible plan.
 */
function tripReplan(o: TripOptions, price: number): { req: SolveRequestInput & Record<string, unknown>; plan: number[][] } | null {
  const req = tripRequest(o);
  const first = solve(req, o.seed, 40);
  if (first.status !== "solved") return null;
  const plan = stopsOf(req, first.result);
  const rng = new Rng(o.seed + 1);
  const locked = plan.map((r) => (r.length > 0 && rng.next() < 0.7 ? rng.int(r.length + 1) : 0));
  const depots = new Set([...req.start_nodes, ...req.end_nodes]);
  const initial = plan.map((r, v) => r.filter((c, k) => k < locked[v]! || depots.has(c) || rng.next() >= 0.3));
  return { req: { ...req, initial_routes: initial, vehicle_locked_stops: locked, reassignment_cost: price }, plan };
}

describe("several trips with locked stops and a reassignment cost", function () {
  this.timeout(300_000);

  it("prices every move exactly on the reload copies, with locked heads (reload stops among them) kept", () => {
    let commits = 0;
    fc.assert(
      fc.property(tripArb, penaltyArb, fc.double({ min: 0.5, max: 30, noNaN: true }), (o, pen, price) => {
        const c = tripReplan(o, price);
        fc.pre(c !== null);
        const p = compileRequest(c!.req).problem;
        const initial = { routes: c!.req.initial_routes as number[][] };
        const expanded = expandTrips(p, initial);
        const start = copiesOf(p, expanded, initial);
        const q = withPlanRules(p, expanded, start);
        const rs = new Routes(buildProblemData(q));
        rs.penalties = pen;
        rs.loadRoutes(start.routes);
        const ls = LocalSearch.perVehicle(rs);
        const rng = new Rng(o.seed);
        // The customers left out of the plan (new orders) are inserted first, as the search does.
        recreate(
          ls.pricing,
          rng,
          Array.from(q.customers).filter((c) => rs.routeOf[c]! < 0 && q.trips?.copyOf?.[c] === -1),
        );
        ls.onCommit = (predicted, ra, rb) => {
          commits++;
          const now = rs.routes();
          const actual = scratchPrice(q, ra, pen, now[ra]!) + (rb >= 0 ? scratchPrice(q, rb, pen, now[rb]!) : 0);
          expect(predicted, `routes ${ra}, ${rb}`).to.be.closeTo(actual, 1e-6 * Math.max(1, Math.abs(actual)));
          expectLocksKept(q, now, "after a move");
        };
        ls.run(rng);
        for (let round = 0; round < 3; round++) {
          recreate(ls.pricing, rng, ruin(rs, rng, 1 + rng.int(p.customers.length)));
          expectLocksKept(q, rs.routes(), "after ruin and recreate");
          ls.run(rng);
        }
      }),
      { numRuns: 80, seed: 17 },
    );
    expect(commits, "moves applied").to.be.greaterThan(50);
  });

  it("re-plans a multi-trip answer: locked heads kept, every customer served, never costlier than the feasible plan", () => {
    let checked = 0;
    fc.assert(
      fc.property(tripArb, fc.double({ min: 0.5, max: 30, noNaN: true }), (o, price) => {
        const c = tripReplan(o, price);
        fc.pre(c !== null);
        const req = c!.req;
        const p = compileRequest(req).problem;
        const out = solve(req, o.seed + 2, 60);
        // The locked heads come from a feasible answer, so a feasible plan keeps them: never `failed`.
        expect(out.status, out.status === "failed" ? out.error : "").to.equal("solved");
        const result = (out as Extract<SolveOutcome, { status: "solved" }>).result;
        const routes = stopsOf(req, result);
        expectLocksKept(p, routes, `seed ${o.seed}`);
        const score = evaluateSolution(p, { routes });
        expect(judgeSolution(p, { routes }, score).feasible).to.equal(true);
        expect(result.total_cost).to.equal(withoutDust(score.cost));
        // The independent checker recomputes distance costs: soft windows add lateness it does not price.
        if (!(o.timed && o.soft)) checkDistanceResult(req as never, result as never);
        // The full first answer is a feasible plan of the same problem: with every customer given, never costlier.
        const full = { ...req, initial_routes: c!.plan };
        const given = evaluateSolution(compileRequest(full).problem, { routes: c!.plan });
        const again = solve(full, o.seed + 3, 30);
        expect(again.status).to.equal("solved");
        expect((again as Extract<SolveOutcome, { status: "solved" }>).result.total_cost).to.be.at.most(withoutDust(given.cost));
        checked++;
      }),
      { numRuns: 50, seed: 19 },
    );
    expect(checked).to.be.greaterThan(10);
  });
});
