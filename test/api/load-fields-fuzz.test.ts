import { expect } from "chai";
import fc from "fast-check";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { compileRequest, requestDistance } from "../../src/problem/compile-request.js";
import { infeasibilities } from "../../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { loadRequest } from "../helpers/load-requests.js";

const FIELDS = ["node_pickups", "pickups_after_deliveries", "shipments", "node_extra_demands", "vehicles_extra_capacity"] as const;

const nasty = fc.oneof(
  fc.constantFrom(null, true, [], {}, [[]], -1, 0, 0.5, 1e12, 1e13, 2 ** 31, Number.MAX_SAFE_INTEGER, "1", "NaN"),
  fc.integer({ min: -2, max: 20 }),
  fc.array(fc.integer({ min: -1, max: 20 }), { maxLength: 20 }),
  fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 3 }), { maxLength: 20 }),
  fc.array(
    fc.record({
      pickup: fc.integer({ min: -1, max: 20 }),
      delivery: fc.integer({ min: 0, max: 20 }),
      amount: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(-1)),
    }),
    { maxLength: 10 },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

const mutation = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), field: fc.constantFrom(...FIELDS), value: nasty }),
  fc.record({ kind: fc.constant("delete" as const), field: fc.constantFrom(...FIELDS) }),
  fc.record({
    kind: fc.constant("element" as const),
    field: fc.constantFrom("node_pickups", "shipments", "node_extra_demands", "vehicles_extra_capacity", "node_demands"),
    index: fc.nat(17),
    value: nasty,
  }),
);

/**
 * Bad pickup-and-delivery fields never get past validation into a crash: a mutated request is
 * either refused with issues in the 422 shape, or it compiles, pre-checks and solves (solved or
 * failed, never an exception that would be a 500 or a crashed worker).
 */
describe("bad load fields never hurt the solver (property)", function () {
  this.timeout(300_000);

  it("refuses or solves every mutation of a request with every load field", async () => {
    const api = await sharedSpecBackend();
    let refused = 0;
    let solved = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const body = structuredClone(loadRequest("all")) as unknown as Record<string, unknown>;
        for (const m of mutations) {
          if (m.kind === "set") body[m.field] = m.value;
          else if (m.kind === "delete") delete body[m.field];
          else if (Array.isArray(body[m.field])) (body[m.field] as unknown[])[m.index] = m.value;
        }
        const checked = validateSolveRequest(api, body, () => null);
        if (!checked.ok) {
          refused++;
          expect(checked.issues.length).to.be.greaterThan(0);
          for (const issue of checked.issues) expect(issue.loc[0]).to.equal("body");
          return;
        }
        const request: SolveRequestInput = checked.request;
        infeasibilities(compileRequest(request, { withDistances: false }).problem, requestDistance(request));
        const outcome = solveRequest({ ...request, max_iterations: 30 }, { requestId: "fuzz", timeLimitSeconds: 0.3 });
        expect(outcome.status).to.be.oneOf(["solved", "failed"]);
        solved++;
      }),
      { numRuns: 80, seed: 22 },
    );
    // Both paths were exercised, or the property says little.
    expect(refused).to.be.greaterThan(10);
    expect(solved).to.be.greaterThan(3);
  });
});
