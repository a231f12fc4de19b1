import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import { submitSchemaErrors, validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { sharedSpecBackend } from "../helpers/spec-backend.js";

const allowAll = () => null;

/** Bodies the schema accepts and bodies it refuses in several ways (types, bounds, unknown fields, missing ones). */
function bodies(): Record<string, unknown>[] {
  const examples = ["small-cvrp", "time-windows", "multi-depot-cost", "fewest-vehicles"].map(
    (name) => JSON.parse(readFileSync(join(REPO_ROOT, "examples", `${name}.json`), "utf8")) as Record<string, unknown>,
  );
  const small = examples[0]!;
  return [
    ...examples,
    { ...small, node_num: "4" },
    { ...small, node_num: -1 },
    { ...small, time_limit_seconds: 0 },
    { ...small, distance_matrix: [[0, "a"]] },
    { ...small, unknown_field: true },
    { ...small, objective: "min_routes" },
    { ...small, callback_url: 5 },
    { vehicle_num: 1 },
    {},
  ];
}

describe("the solve request's schema check (the submit's compiled checks called directly)", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });

  it("finds exactly the errors the library's request validation finds, valid and invalid bodies alike", () => {
    let refused = 0;
    for (const body of bodies()) {
      const library = api.validator.validateRequest(
        { method: "post", path: "/api/v1/solve", body, headers: { "content-type": "application/json" } },
        "submitSolve",
      );
      const label = JSON.stringify(body).slice(0, 80);
      expect(submitSchemaErrors(api, body), label).to.deep.equal(library.errors ?? []);
      const outcome = validateSolveRequest(api, body, allowAll);
      expect(outcome.ok || outcome.schemaValid, label).to.equal(library.valid);
      if (!library.valid) refused++;
    }
    expect(refused, "bodies the schema refuses were among them").to.be.greaterThan(5);
  });
});
