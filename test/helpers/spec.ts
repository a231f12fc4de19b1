import { AssertionError } from "chai";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { validate, type Validator } from "@hyperjump/json-schema/openapi-3-1";
import { SPEC_PATH } from "../../src/api/spec-backend.js";

type Json = Record<string, unknown>;
const SPEC_URL = pathToFileURL(SPEC_PATH).href;
let cachedDoc: Json | null = null;
const validators = new Map<string, Promise<Validator>>();

export function loadSpec(): Json {
  cachedDoc ??= JSON.parse(readFileSync(SPEC_PATH, "utf8")) as Json;
  return cachedDoc;
}

/** A JSON-pointer token, also safe inside a URI fragment (path templates contain braces). */
function escapePointer(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1").replace(/\{/g, "%7B").replace(/\}/g, "%7D");
}

function resolvePointer(doc: Json, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((node, token) => (node as Json)[decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~")], doc);
}

/** Finds the JSON pointer of the schema that documents `operationId`'s response for `status`. */
export function responseSchemaPointer(operationId: string, status: number, mediaType = "application/json"): string {
  const doc = loadSpec();
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if ((op as Json).operationId !== operationId) continue;
      let pointer = `#/paths/${escapePointer(path)}/${method}/responses/${status}`;
      let response = resolvePointer(doc, pointer.slice(1)) as Json | undefined;
      if (!response) throw new AssertionError(`the document declares no ${status} response for ${operationId}`);
      if (typeof response.$ref === "string") {
        pointer = response.$ref;
        response = resolvePointer(doc, pointer.slice(1)) as Json;
      }
      const content = (response.content as Json | undefined)?.[mediaType] as Json | undefined;
      if (!content) throw new AssertionError(`the ${status} response of ${operationId} has no ${mediaType} content`);
      const schema = content.schema as Json;
      return typeof schema.$ref === "string" ? schema.$ref : `${pointer}/content/${escapePointer(mediaType)}/schema`;
    }
  }
  throw new AssertionError(`no operation '${operationId}' in the document`);
}

/** Validates a body against an arbitrary schema location of the document (e.g. a component). */
export async function expectMatchesSchema(pointer: string, body: unknown, what = pointer): Promise<void> {
  let validator = validators.get(pointer);
  if (!validator) {
    validator = validate(`${SPEC_URL}${pointer}`);
    validators.set(pointer, validator);
  }
  const output = (await validator)(body as never, "BASIC");
  if (!output.valid) {
    const where = (output.errors ?? [])
      .slice(0, 12)
      .map((e) => `${e.instanceLocation} (${e.absoluteKeywordLocation.split("#")[1] ?? e.keyword})`);
    throw new AssertionError(
      `${what}: body does not match the OpenAPI document at ${where.join(", ")}\n${JSON.stringify(body).slice(0, 600)}`,
    );
  }
}

/** Asserts that a response body matches the document's schema for that operation and status. */
export async function expectMatchesSpec(operationId: string, status: number, body: unknown): Promise<void> {
  await expectMatchesSchema(responseSchemaPointer(operationId, status), body, `${operationId} ${status}`);
}

/** The operationId the document gives to `method` on the path template `path`, if any. */
export function operationIdOf(path: string, method: string): string | undefined {
  const item = (loadSpec().paths as Json)[path] as Json | undefined;
  return ((item?.[method.toLowerCase()] as Json | undefined)?.operationId as string | undefined) ?? undefined;
}

/** Asserts that the document declares a 204 (no content) response for `operationId`. */
export function expectNoContentDeclared(operationId: string): void {
  for (const item of Object.values(loadSpec().paths as Json)) {
    for (const op of Object.values(item as Json)) {
      if ((op as Json).operationId !== operationId) continue;
      const response = ((op as Json).responses as Json)["204"] as Json | undefined;
      if (!response) throw new AssertionError(`the document declares no 204 response for ${operationId}`);
      if (response.content !== undefined) throw new AssertionError(`the 204 response of ${operationId} declares content`);
      return;
    }
  }
  throw new AssertionError(`no operation '${operationId}' in the document`);
}
