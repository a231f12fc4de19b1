import { expect } from "chai";
import { readFileSync } from "node:fs";
import { compileRequest } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";

const golden = JSON.parse(readFileSync(new URL("../fixtures/v1-results.json", import.meta.url), "utf8")) as Record<
  string,
  { outcome: { status: string; result?: Record<string, unknown> }; infeasibilities: unknown[] }
>;

/** constraints.md: "a request without them means exactly what it means today". */
describe("a request without the constraint fields gives exactly what it gave before them", () => {
  for (const name of ["small-cvrp", "time-windows", "multi-depot-cost", "infeasible"]) {
    it(`examples/${name}.json: the same outcome, result and pre-check as before the fields existed`, () => {
      const request = JSON.parse(readFileSync(new URL(`../../examples/${name}.json`, import.meta.url), "utf8")) as SolveRequestInput;
      const outcome = solveRequest(request, { requestId: "golden", timeLimitSeconds: 30, seed: 1, maxIterations: 300 });
      const {
        time: _time,
        solver_version: _version,
        request_id: _id,
        ...result
      } = (outcome.status === "solved" ? outcome.result : {}) as Record<string, unknown>;
      expect(outcome.status === "solved" ? { status: "solved", result } : outcome).to.deep.equal(golden[name]!.outcome);
      expect(infeasibilities(compileRequest(request).problem)).to.deep.equal(golden[name]!.infeasibilities);
    });
  }
});
