import { expect } from "chai";
import { OpenAPIRouter } from "openapi-backend";
import { createSpecBackend, loadSpecDocument } from "../../src/api/spec-backend.js";

const METHODS = ["get", "head", "post", "put", "patch", "delete", "options"];

/**
 * The API's router with its path patterns compiled once (spec-backend.ts) must match
 * exactly what openapi-backend's own router matches: every documented path with its parameters
 * filled in, with a trailing slash, a query string, wrong methods, and paths that match nothing.
 */
describe("routing with precompiled path patterns", () => {
  it("matches every request as openapi-backend's router does", async () => {
    const api = await createSpecBackend({});
    const reference = new OpenAPIRouter({ definition: loadSpecDocument() });
    expect(api.router.matchOperation, "the precompiled matcher is installed").to.not.equal(OpenAPIRouter.prototype.matchOperation);
    const paths = new Set<string>([
      "/",
      "/nope",
      "/api/v1",
      "/api/v1/solve/result",
      "/api/v1/solve/result/a/b",
      "//api/v1/solve",
      "api/v1/solve",
    ]);
    for (const operation of reference.getOperations()) {
      const filled = operation.path.replace(/\{[^}]+\}/g, "0b5f4c1e-2a4d-4c3e-9f00-123456789abc");
      for (const p of [filled, `${filled}/`, `${filled}?x=1`, operation.path, filled.toUpperCase()]) paths.add(p);
    }
    let compared = 0;
    for (const path of paths) {
      for (const method of [...METHODS, ...METHODS.map((m) => m.toUpperCase())]) {
        const req = { method, path, headers: {} };
        expect(api.router.matchOperation(req)?.operationId, `${method} ${path}`).to.equal(reference.matchOperation(req)?.operationId);
        let ours: string | undefined;
        let theirs: string | undefined;
        try {
          ours = api.router.matchOperation(req, true).operationId;
        } catch (err) {
          ours = `throws ${(err as Error).message}`;
        }
        try {
          theirs = reference.matchOperation(req, true).operationId;
        } catch (err) {
          theirs = `throws ${(err as Error).message}`;
        }
        expect(ours, `strict ${method} ${path}`).to.equal(theirs);
        compared++;
      }
    }
    expect(compared).to.be.greaterThan(200);
  });
});
