import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { validate } from "@hyperjump/json-schema/openapi-3-1";
import { ERROR_STATUS } from "../../src/errors/codes.js";
import { createSpecBackend } from "../../src/api/spec-backend.js";
import { currentGeneratedTypes, expectedGeneratedTypes } from "../../scripts/generated-types.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { apiClient } from "../helpers/client.js";
import { expectMatchesSchema, expectMatchesSpec, loadSpec, responseSchemaPointer } from "../helpers/spec.js";

type Json = Record<string, any>;

describe("the OpenAPI document", function () {
  this.timeout(60_000);
  const doc = loadSpec() as Json;

  it("is valid OpenAPI 3.1 with JSON Schema 2020-12 schemas (its jsonSchemaDialect)", async () => {
    const output = (await validate("https://spec.openapis.org/oas/3.1/schema-draft-2020-12", doc as never, "BASIC")) as {
      valid: boolean;
      errors?: unknown[];
    };
    expect(output.valid, JSON.stringify(output.errors?.slice(0, 5))).to.equal(true);
  });

  it("passes redocly lint with no errors and no warnings", () => {
    const out = execFileSync(
      "npx",
      ["redocly", "lint", "openapi/solve-api.openapi.json", "--config", "openapi/redocly.yaml", "--format", "json"],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const report = JSON.parse(out.slice(out.indexOf("{"))) as { totals: { errors: number; warnings: number } };
    expect(report.totals).to.include({ errors: 0, warnings: 0 });
  });

  it("has generated types that are up to date (run `npm run gen` when this fails)", () => {
    expect(currentGeneratedTypes() === expectedGeneratedTypes(), "generated/api.ts is stale").to.equal(true);
  });

  it("lists exactly the server's error codes", () => {
    const documented = doc.components.schemas.ErrorCode.enum as string[];
    expect(new Set(documented).size).to.equal(documented.length);
    expect([...documented].sort()).to.deep.equal(Object.keys(ERROR_STATUS).sort());
  });

  it("declares 401 and the envelope for every /api/v1 operation", () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      if (!path.startsWith("/api/v1")) continue;
      for (const [key, op] of Object.entries(item as Json) as [string, Json][]) {
        if (key.startsWith("x-")) continue;
        expect(op.responses, `${op.operationId}`).to.have.property("401");
        expect(op.responses, `${op.operationId}`).to.have.property("500");
      }
    }
  });

  it("has examples that match their schemas", async () => {
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json) as [string, Json][]) {
        if (method.startsWith("x-")) continue;
        const reqExamples = op.requestBody?.content?.["application/json"]?.examples ?? {};
        for (const [name, ex] of Object.entries(reqExamples) as [string, Json][]) {
          await expectMatchesSchema("#/components/schemas/SolveRequest", ex.value, `${method} ${path} request example ${name}`);
          checked++;
        }
        for (const status of Object.keys(op.responses)) {
          let response = op.responses[status] as Json;
          if (response.$ref) response = doc.components.responses[(response.$ref as string).split("/").pop()!];
          const examples = response.content?.["application/json"]?.examples ?? {};
          for (const [name, ex] of Object.entries(examples) as [string, Json][]) {
            await expectMatchesSpec(op.operationId, Number(status), ex.value).catch((e: Error) => {
              throw new Error(`${op.operationId} ${status} example ${name}: ${e.message}`);
            });
            checked++;
          }
        }
      }
    }
    expect(checked).to.be.greaterThan(20);
  });

  it("rejects wrong bodies in the response checker", async () => {
    let failed = false;
    await expectMatchesSpec("submitSolve", 200, { success: true, request_id: "x", error: null, result: { status: "done" } }).catch(
      () => (failed = true),
    );
    expect(failed).to.equal(true);
    failed = false;
    await expectMatchesSpec("getSolveResult", 200, { success: true, request_id: "x", error: null, result: { routes: {} } }).catch(
      () => (failed = true),
    );
    expect(failed).to.equal(true);
    expect(responseSchemaPointer("submitSolve", 422)).to.equal("#/components/schemas/ValidationErrorEnvelope");
  });

  it("makes the tests' typed client reject any response that does not match the document", async () => {
    let body: unknown = {
      success: true,
      request_id: "r",
      error: null,
      result: { status: "processing", phase: "solving", queue_depth: null },
    };
    const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body)));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const client = apiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const poll = () => client.GET("/api/v1/solve/result/{request_id}", { params: { path: { request_id: "r" } } });
      expect((await poll()).response.status).to.equal(200);
      body = { success: true, request_id: "r", error: null, result: { status: "processing", phase: "thinking" } };
      const outcome = await poll().then(
        () => "accepted",
        (e: Error) => e.message,
      );
      expect(outcome).to.match(/does not match the OpenAPI document/);
    } finally {
      server.close();
    }
  });

  it("documents a 405 with a required Allow header on every operation", () => {
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json) as [string, Json][]) {
        if (method.startsWith("x-")) continue;
        const ref = op.responses["405"]?.$ref as string | undefined;
        expect(ref, `${method} ${path}`).to.be.a("string");
        const response = doc.components.responses[ref!.split("/").pop()!] as Json;
        expect(response.headers.Allow, `${method} ${path}`).to.include({ required: true });
        expect(responseSchemaPointer(op.operationId, 405)).to.equal("#/components/schemas/MethodNotAllowedEnvelope");
        operations++;
      }
    }
    expect(operations).to.be.at.least(7);
  });

  it("says how unknown query parameters are treated, where a validation issue is, and which bodies are not JSON", () => {
    expect(doc.info.description).to.match(/Unknown query parameters are ignored on every operation/);
    const loc = doc.components.schemas.ValidationIssue.properties.loc.description as string;
    expect(loc).to.include('["query", name]').and.include('["body", field, ...]').and.include('`["body"]`');
    expect(doc.paths["/api/v1/history"].get.parameters.find((p: Json) => p.name === "cursor").description).to.match(/422/);
    expect(doc.components.responses.ValidationFailed.description).to.match(/not an object/);
  });

  it("accepts an empty or null max_working_hours as no cap, and says so", async () => {
    const example = doc.paths["/api/v1/solve"].post.requestBody.content["application/json"].examples.timeWindows.value as Json;
    for (const noCap of ["", null, 8])
      await expectMatchesSchema("#/components/schemas/SolveRequest", { ...example, max_working_hours: noCap }, JSON.stringify(noCap));
    for (const bad of ["8", "eight", 0, -1]) {
      const refused = await expectMatchesSchema("#/components/schemas/SolveRequest", { ...example, max_working_hours: bad }).then(
        () => false,
        () => true,
      );
      expect(refused, JSON.stringify(bad)).to.equal(true);
    }
    expect(doc.components.schemas.SolveRequest.properties.max_working_hours.description).to.match(/empty \(`""`\) means no cap/);
  });

  it("loads into openapi-backend and validates requests with the 2020-12 dialect", async () => {
    const api = await createSpecBackend({});
    const good = api.validator.validateRequest(
      {
        method: "post",
        path: "/api/v1/solve",
        headers: { "content-type": "application/json" },
        body: doc.paths["/api/v1/solve"].post.requestBody.content["application/json"].examples.timeWindows.value,
      },
      "submitSolve",
    );
    expect(good.valid, JSON.stringify(good.errors)).to.equal(true);
    const bad = api.validator.validateRequest(
      { method: "post", path: "/api/v1/solve", headers: {}, body: { node_num: 2, node_positions: [[1, 2, 3]] } },
      "submitSolve",
    );
    expect(bad.valid).to.equal(false);
    const locations = (bad.errors ?? []).map((e) => e.instancePath);
    expect(locations).to.include("/requestBody/node_positions/0");
  });
});
