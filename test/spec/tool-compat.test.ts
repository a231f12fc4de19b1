/**
 * The document's shape where common tools need it: Prism reads the schema
 * dialect, Postman's validator misreads `items: false`, typed clients switch on `result.status`
 * and narrow error types by HTTP status, and generators name the callback body's type.
 */
import { expect } from "chai";
import { ERROR_STATUS } from "../../src/errors/codes.js";
import { expectMatchesSchema, loadSpec, responseSchemaPointer } from "../helpers/spec.js";

type Json = Record<string, any>;
const doc = loadSpec() as Json;
const schemas = doc.components.schemas as Json;
const byPointer = (pointer: string): Json =>
  pointer
    .slice(2)
    .split("/")
    .reduce((node: Json, token) => node[decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~")], doc);
const deref = (schema: Json): Json => (typeof schema.$ref === "string" ? deref(byPointer(schema.$ref)) : schema);

/** Every schema object in the document, with where it is. */
function* allSchemas(node: unknown, at = "#"): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* allSchemas(item, `${at}/${i}`);
  } else if (node && typeof node === "object") {
    yield [at, node as Json];
    for (const [key, value] of Object.entries(node)) yield* allSchemas(value, `${at}/${key}`);
  }
}

/** The codes an error envelope's `code` admits, through `$ref` and `allOf` (the narrowest wins). */
function admittedCodes(schema: Json): string[] {
  schema = deref(schema);
  let codes: string[] | null = null;
  const narrow = (next: string[]) => (codes = codes === null ? next : codes.filter((c) => next.includes(c)));
  for (const part of schema.allOf ?? []) narrow(admittedCodes(part));
  const code = schema.properties?.code && deref(schema.properties.code);
  if (code) narrow(code.const !== undefined ? [code.const] : (code.enum as string[]));
  return codes ?? [];
}

describe("the OpenAPI document in common tools", () => {
  it("declares the JSON Schema 2020-12 dialect, which validating proxies and mocks (Prism) apply to bodies", () => {
    expect(doc.jsonSchemaDialect).to.equal("https://json-schema.org/draft/2020-12/schema");
  });

  it("has no `items: false` anywhere, and writes the homogeneous pairs as typed items with two elements exactly", async () => {
    const falseItems = [...allSchemas(doc)].filter(([, s]) => s.items === false).map(([at]) => at);
    expect(falseItems).to.deep.equal([]);
    const pairs = {
      node_positions: schemas.SolveRequest.properties.node_positions.items,
      node_time_windows: schemas.SolveRequest.properties.node_time_windows.items,
      "result time_windows": schemas.SolvedResult.properties.time_windows.additionalProperties.items,
    };
    for (const [name, pair] of Object.entries(pairs) as [string, Json][]) {
      expect(pair, name).to.include({ type: "array", minItems: 2, maxItems: 2 });
      expect(pair, name).not.to.have.property("prefixItems");
      expect(pair.items, name).to.be.an("object").with.property("type");
    }
    // Still exactly two: the validator refuses one or three coordinates.
    const request = {
      node_num: 2,
      vehicle_num: 1,
      distance_matrix: [
        [0, 1],
        [1, 0],
      ],
      node_demands: [0, 1],
      vehicle_capacities: [5],
      depot_indices: [0],
    };
    for (const positions of [
      [[1], [2, 3]],
      [
        [1, 2, 3],
        [2, 3],
      ],
    ]) {
      const refused = await expectMatchesSchema("#/components/schemas/SolveRequest", { ...request, node_positions: positions }).then(
        () => false,
        () => true,
      );
      expect(refused, JSON.stringify(positions)).to.equal(true);
    }
  });

  it('gives the solved result `status: "solved"` (an extension), so the three poll states are told apart by `result.status`', () => {
    const status = schemas.SolvedResult.properties.status;
    expect(status).to.include({ const: "solved", "x-extension": true });
    expect(schemas.SolvedResult.required).to.include("status");
    const branches = (byPointer(responseSchemaPointer("getSolveResult", 200)).anyOf as Json[]).map(deref);
    const tags = branches.map((branch) => {
      const result = deref(branch.properties.result);
      return result.type === "null" ? "null" : deref(result.properties.status).const;
    });
    expect(tags.sort()).to.deep.equal(["null", "processing", "solved"]);
  });

  it("gives every error status of every operation its own envelope whose `code` admits only codes of that status", () => {
    let checked = 0;
    for (const item of Object.values(doc.paths as Json)) {
      for (const op of Object.values(item as Json) as Json[]) {
        if (!op?.operationId) continue;
        for (const status of Object.keys(op.responses)
          .map(Number)
          .filter((s) => s >= 400)) {
          const pointer = responseSchemaPointer(op.operationId, status);
          const schema = byPointer(pointer);
          // Not an error envelope (e.g. /readyz's 503).
          if (!admittedCodes({ $ref: pointer }).length && !schema.properties?.code && !schema.allOf) continue;
          // An operation may narrow further than the status (two operations' 409s can mean different things).
          const ofStatus = Object.entries(ERROR_STATUS)
            .filter(([, s]) => s === status)
            .map(([code]) => code);
          const admitted = admittedCodes({ $ref: pointer });
          expect(admitted, `${op.operationId} ${status} (${pointer})`).to.not.be.empty;
          expect(
            admitted.filter((code) => !ofStatus.includes(code)),
            `${op.operationId} ${status} (${pointer}) admits codes of other statuses`,
          ).to.deep.equal([]);
          checked++;
        }
      }
    }
    expect(checked).to.be.greaterThan(20);
    // Where one envelope serves a status on every operation, it admits all of that status's codes.
    expect(admittedCodes(schemas.UnauthorizedEnvelope).sort()).to.deep.equal([
      "invalid_credentials",
      "invalid_proxy_secret",
      "missing_credentials",
    ]);
    expect(admittedCodes(schemas.ForbiddenEnvelope).sort()).to.deep.equal(["api_access_not_in_plan", "forbidden"]);
    expect(admittedCodes(schemas.BadRequestEnvelope).sort()).to.deep.equal(["malformed_json", "plan_limit_exceeded"]);
    expect(admittedCodes(schemas.RateLimitedEnvelope).sort()).to.deep.equal([
      "monthly_quota_exceeded",
      "rate_limit_exceeded",
      "service_busy",
    ]);
    expect(schemas.ValidationErrorEnvelope.required).to.include("detail");
  });

  it("names the completion callback's body, so generators emit a type for the receiving side", () => {
    const callback = doc.paths["/api/v1/solve"].post.callbacks.completion["{$request.body#/callback_url}"].post;
    expect(callback.requestBody.content["application/json"].schema).to.deep.equal({ $ref: "#/components/schemas/CompletionCallbackBody" });
    expect(schemas.CompletionCallbackBody.oneOf).to.deep.equal([
      { $ref: "#/components/schemas/PollSolved" },
      { $ref: "#/components/schemas/PollFailed" },
    ]);
  });
});
