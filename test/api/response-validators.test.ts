import { expect } from "chai";
import { createSpecBackend, loadSpecDocument } from "../../src/api/spec-backend.js";
import { sharedSpecBackend } from "../helpers/spec-backend.js";

interface JsonContent {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface ResponseObject {
  $ref?: string;
  content?: { "application/json"?: JsonContent };
}
interface OperationObject {
  operationId?: string;
  responses: Record<string, ResponseObject>;
}

/** Every documented JSON response of every operation: its status and the document's examples of it. */
function documentedResponses(): { operationId: string; status: number; examples: unknown[] }[] {
  const doc = loadSpecDocument() as unknown as {
    paths: Record<string, Record<string, OperationObject>>;
    components: { responses: Record<string, ResponseObject> };
  };
  const resolve = (r: ResponseObject) => (r.$ref ? doc.components.responses[r.$ref.split("/").pop()!]! : r);
  return Object.values(doc.paths).flatMap((operations) =>
    Object.values(operations)
      .filter((operation) => typeof operation === "object" && operation.operationId)
      .flatMap((operation) =>
        Object.entries(operation.responses).flatMap(([status, response]) => {
          const json = resolve(response).content?.["application/json"];
          if (!json) return [];
          const examples = json.examples ? Object.values(json.examples).map((e) => e.value) : [json.example];
          return [{ operationId: operation.operationId!, status: Number(status), examples }];
        }),
      ),
  );
}

/**
 * The API's self-check of its responses (SELF_CHECK_RESPONSES) uses the validators the spec
 * backend compiles on each operation's first use, many of them sharing one Ajv: each operation and status must get
 * its own schema, accepting the document's examples and refusing a body that matches none.
 */
describe("the spec backend's response validators", () => {
  let api: Awaited<ReturnType<typeof sharedSpecBackend>>;
  before(async () => {
    api = await sharedSpecBackend();
  });

  it("accept every documented example of every JSON response and refuse a body of the wrong shape", async () => {
    const responses = documentedResponses();
    expect(responses.length, "JSON responses in the document").to.be.greaterThan(50);
    for (const { operationId, status, examples } of responses) {
      for (const example of examples) {
        const outcome = api.validator.validateResponse(example, operationId, status);
        expect(outcome.valid, `${operationId} ${status}: ${JSON.stringify(outcome.errors)}`).to.equal(true);
      }
      expect(api.validator.validateResponse(["not", "an", "object"], operationId, status).valid, `${operationId} ${status}`).to.equal(
        false,
      );
    }
  });

  it("check a body against the schema of its own status, not another operation's or status's", async () => {
    const responses = documentedResponses();
    const health = responses.find((r) => r.operationId === "getHealth" && r.status === 200)!;
    const refusal = responses.find((r) => r.operationId === "submitSolve" && r.status === 422)!;
    expect(api.validator.validateResponse(health.examples[0], "getHealth", 200).valid).to.equal(true);
    expect(api.validator.validateResponse(health.examples[0], "submitSolve", 422).valid).to.equal(false);
    expect(api.validator.validateResponse(refusal.examples[0], "getHealth", 200).valid).to.equal(false);
  });

  it("compile every operation's request, response and header checks (a process compiles them on first use)", async () => {
    const fresh = await createSpecBackend({});
    const operations = fresh.router.getOperations();
    expect(operations.length, "operations in the document").to.be.greaterThan(10);
    for (const { operationId } of operations) {
      expect(fresh.validator.getRequestValidatorsForOperation(operationId!), operationId).to.have.length.greaterThan(0);
      expect(fresh.validator.getResponseValidatorForOperation(operationId!), operationId).to.be.a("function");
      expect(fresh.validator.getStatusBasedResponseValidatorForOperation(operationId!), operationId).to.be.an("object");
      expect(fresh.validator.getResponseHeadersValidatorForOperation(operationId!), operationId).to.be.an("object");
    }
  });
});
