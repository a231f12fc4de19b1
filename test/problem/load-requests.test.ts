import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { evaluateSolution } from "../../strategies/core/evaluator.js";
import { loadRequest } from "../helpers/load-requests.js";

/**
 * The end-to-end tests' requests (test/helpers/load-requests.ts) are feasible, shown by a witness
 * built here without the search: first-fit routes, deliveries first, then pickups, each
 * shipment's two stops together. So a failed task there is the solver's fault, never the data's.
 */
describe("the end-to-end load requests are feasible", () => {
  for (const kind of ["pickups", "backhauls", "shipments", "dimensions", "all"] as const) {
    it(`has a feasible solution: ${kind}`, () => {
      const request = loadRequest(kind) as SolveRequestInput;
      const { problem } = compileRequest(request);
      expect(problem.loads).to.be.an("object");
      const inShipment = new Set((request.shipments ?? []).flatMap((s) => [s.pickup, s.delivery]));
      const units = [...(request.shipments ?? []).map((s) => [s.pickup, s.delivery])];
      for (let i = 1; i < request.node_num; i++) if (!inShipment.has(i)) units.push([i]);
      const deliveriesFirst = (route: number[]) => [
        ...route.filter((c) => request.node_demands[c]! > 0),
        ...route.filter((c) => !(request.node_demands[c]! > 0)),
      ];
      const routes: number[][] = Array.from({ length: request.vehicle_num }, () => []);
      for (const unit of units) {
        const v = routes.findIndex((_, w) => {
          const trial = routes.map((r, x) => (x === w ? deliveriesFirst([...r, ...unit]) : r));
          return evaluateSolution(problem, { routes: trial }).routes[w]!.feasible;
        });
        expect(v, `customers ${unit.join(", ")} fit some route`).to.be.at.least(0);
        routes[v] = deliveriesFirst([...routes[v]!, ...unit]);
      }
      expect(evaluateSolution(problem, { routes }).feasible).to.equal(true);
    });
  }
});
