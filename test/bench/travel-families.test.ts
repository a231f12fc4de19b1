import { expect } from "chai";
import { TRAVEL_FAMILIES, travelInstance } from "../../bench/travel-family-instance.js";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";

/**
 * The generated travel families are built around a planted plan whose schedule the generator
 * drives itself: the service must accept every request, and its evaluator must find the plan
 * feasible at the generator's own cost (two independent computations of the same schedule).
 */
describe("bench: travel families around a planted plan", () => {
  for (const family of TRAVEL_FAMILIES) {
    it(`${family}: the service accepts the requests and the evaluator prices the planted plan as the generator does`, async () => {
      const api = await sharedSpecBackend();
      for (let index = 0; index < 3; index++) {
        const instance = travelInstance(family, index);
        const validation = validateSolveRequest(api, instance.request, () => null);
        expect(validation.ok, `${instance.name}: ${JSON.stringify(validation)}`).to.equal(true);
        const { problem } = compileRequest(instance.request);
        const score = evaluateSolution(problem, { routes: instance.planted });
        expect(score.feasible, instance.name).to.equal(true);
        expect(score.cost, instance.name).to.be.closeTo(instance.plantedCost, 1e-6 * instance.plantedCost);
      }
    });
  }
});
