import { expect } from "chai";
import { benchmarkRequest } from "../helpers/benchmark-fixtures.js";
import { hgsRoutes, STORED_ROUTES } from "./same-routes-digest.js";

/**
 * A request without the constraint fields (constraints.md) must solve exactly as before they
 * existed: the same routes and cost for a fixed seed and iteration budget, on the paths the rules
 * touched most (the general search's route model, time segments, penalties, local search and
 * recreate; the genetic search's windows), compared with bench/same-routes.ts's stored digests.
 * The instances are the benchmark's, carried in test/fixtures/benchmarks/.
 */
describe("requests without the constraint fields solve exactly as before (bench/same-routes-main.json)", function () {
  this.timeout(300_000);

  const cases = [
    { name: "C101", file: "Solomon/C101", iterations: 300 },
    { name: "X110-HD", file: "HFVRP/X110-HD", iterations: 1500 },
    { name: "PR11A", file: "MDVRPTW/PR11A", iterations: 800 },
  ];
  for (const c of cases) {
    it(`${c.name}: hgs, seed 1, ${c.iterations} iterations: the stored routes and cost`, () => {
      const { problem, digest, cost } = hgsRoutes(c.name, benchmarkRequest(c.file), c.iterations);
      expect(problem.rules ?? null).to.equal(null);
      expect(digest).to.equal(STORED_ROUTES[c.name]!.digest);
      expect(cost).to.equal(STORED_ROUTES[c.name]!.cost);
    });
  }
});
