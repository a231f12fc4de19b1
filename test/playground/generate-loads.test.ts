import { expect } from "chai";
import { routesCsv } from "../../playground/src/downloads.js";
import { generateProblem, type GeneratorOptions } from "../../playground/src/generate.js";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { solveRequest } from "../../src/problem/solve-request.js";
import { checkLoadRules } from "../../checker/check-loads.js";

const base = { nodes: 40, depots: 1, capacities: true, windows: false, timeLimitSeconds: 2, seed: 5 };

/** The playground generator's pickups, shipments and volume, without a browser. */
describe("route playground generator: pickups, shipments, a second dimension", function () {
  this.timeout(60_000);
  it("leaves the problem as it was when none is asked for", () => {
    expect(generateProblem({ ...base, pickups: false, shipments: false, volume: false })).to.deep.equal(generateProblem(base));
  });

  it("generates requests the service accepts and solves, every load rule kept", async () => {
    const api = await sharedSpecBackend();
    const cases: GeneratorOptions[] = [
      { ...base, pickups: true },
      { ...base, shipments: true },
      { ...base, volume: true },
      { ...base, pickups: true, shipments: true, volume: true, windows: true, depots: 2, seed: 9 },
    ];
    for (const options of cases) {
      const request = generateProblem(options);
      const checked = validateSolveRequest(api, request, () => null);
      expect(checked.ok, JSON.stringify(checked)).to.equal(true);
      expect("node_pickups" in request).to.equal(options.pickups === true);
      expect("shipments" in request).to.equal(options.shipments === true);
      expect("node_extra_demands" in request).to.equal(options.volume === true);
      const outcome = solveRequest(checked.ok ? checked.request : (request as never), { requestId: "gen", timeLimitSeconds: 1 });
      if (outcome.status !== "solved") throw new Error(`${request.name}: ${outcome.error}`);
      checkLoadRules(request as never, outcome.result);
      // The routes CSV gains the load on board as its last column.
      const csv = routesCsv(outcome.result).trimEnd().split("\n");
      expect(csv[0]).to.equal("vehicle,sequence,node,cumulative_load,arrive,leave,route_distance,load_on_board");
      const [label] = Object.keys(outcome.result.routes);
      expect(csv[1]!.split(",").at(-1)).to.equal(String(outcome.result.loads_on_board![label!]![0]));
    }
  });
});
