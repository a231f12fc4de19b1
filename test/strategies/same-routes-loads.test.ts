import { expect } from "chai";
import { benchmarkRequest } from "../helpers/benchmark-fixtures.js";
import { hgsRoutes, STORED_ROUTES } from "./same-routes-digest.js";

/**
 * A request without the load fields (constraints.md, second table) solves exactly as before they
 * existed: same seed and iteration budget, same routes (the digests of bench/same-routes.ts in
 * bench/same-routes-main.json, written on main before the load rules). The quick cases of every
 * kind of search the load rules touched: the general iterated local search (route model, moves,
 * ruin and recreate) on two mixed fleets, and the genetic search with windows and with a duration
 * cap. The instances are the benchmark's, carried in test/fixtures/benchmarks/.
 */
describe("requests without the load fields solve exactly as before (bench/same-routes-main.json)", function () {
  this.timeout(300_000);

  // The iteration budgets of bench/same-routes.ts's cases.
  const cases = [
    { name: "C101", file: "Solomon/C101", iterations: 300 },
    { name: "CMT13", file: "CMT/CMT13", iterations: 300 },
    { name: "X110-HD", file: "HFVRP/X110-HD", iterations: 1500 },
    { name: "X101-FSMFD", file: "HFVRP/X101-FSMFD", iterations: 1500 },
  ];
  for (const c of cases) {
    it(`${c.name}: hgs, seed 1, ${c.iterations} iterations: the stored routes and cost`, () => {
      const { problem, digest, cost } = hgsRoutes(c.name, benchmarkRequest(c.file), c.iterations);
      expect(problem.loads ?? null, "no load rules compiled").to.equal(null);
      expect(digest).to.equal(STORED_ROUTES[c.name]!.digest);
      expect(cost).to.equal(STORED_ROUTES[c.name]!.cost);
    });
  }
});
