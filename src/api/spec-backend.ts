import { join } from "node:path";
import { REPO_ROOT } from "../infra/repo-root.js";
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { OpenAPIBackend, OpenAPIValidator, type Document, type Handler } from "openapi-backend";

export const SPEC_PATH = join(REPO_ROOT, "openapi/solve-api.openapi.json");

// Both packages are CommonJS with a default export; under NodeNext ESM it sits on `.default`.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/**
 * openapi-backend checks documents against the OAS 3.0 meta-schema, which a valid 3.1 document
 * fails; the document is validated against OAS 3.1 by the test suite and lint instead.
 */
class OpenAPIBackend31 extends OpenAPIBackend {
  override validateDefinition() {
    return this.document;
  }
}

export function loadSpecDocument(path = SPEC_PATH): Document {
  return JSON.parse(readFileSync(path, "utf8")) as Document;
}

/**
 * The router and request validator built from the OpenAPI document. Validation is invoked by the
 * handlers themselves (never automatically) because the spec's order of checks puts
 * authentication and the rate limit before body validation.
 */
export async function createSpecBackend(handlers: Record<string, Handler>): Promise<OpenAPIBackend> {
  const ajvs = new Map<string, InstanceType<typeof Ajv2020>>();
  const ajvOpts = { allErrors: true, strictNumbers: true, strict: false };
  const api = new OpenAPIBackend31({
    definition: loadSpecDocument(),
    strict: true,
    // No validator built by init (it would compile every operation's request, response and header
    // checks); the lazy one below is set instead. Validation is never automatic either way.
    validate: false,
    quick: false,
    ajvOpts,
    handlers,
  });
  // Authentication runs inside the handlers (it must come first in the spec's order of checks and
  // answer with the spec's texts), so the document's schemes are declared satisfied here.
  for (const scheme of ["userName", "apiKey", "marketplaceProxySecret", "marketplaceUser"]) {
    api.registerSecurityHandler(scheme, () => true);
  }
  await api.init();
  memoizeOperations(api);
  // Each operation's checks are compiled on its first use: a process (an API instance, the CLI)
  // compiles only what it serves, and starts in a fraction of the time.
  api.validator = new OpenAPIValidator({
    definition: api.definition,
    ajvOpts,
    customizeAjv: (_ajv, opts) => sharedAjv(ajvs, opts),
    router: api.router,
    lazyCompileValidators: true,
  });
  precompileRouting(api);
  return api;
}

/**
 * openapi-backend asks for a fresh Ajv for every operation and kind of check, and every fresh Ajv
 * compiles the JSON Schema meta-schema again (most of the start-up time); one instance per set of
 * options compiles all of them. The schemas carry no `$id`, so they never collide in one instance.
 */
function sharedAjv(ajvs: Map<string, InstanceType<typeof Ajv2020>>, opts: unknown): never {
  const key = JSON.stringify(opts);
  let ajv = ajvs.get(key);
  if (!ajv) {
    ajv = new Ajv2020({ ...(opts as object), allErrors: true, strictNumbers: true, strict: false });
    addFormats(ajv);
    ajvs.set(key, ajv);
  }
  return ajv as never;
}

/**
 * openapi-backend rebuilds its flat list of operations from the document (with lodash chains) on
 * every routing and every validation call; the document never changes after init, so the list is
 * built once.
 */
function memoizeOperations(api: OpenAPIBackend): void {
  const operations = api.router.getOperations();
  api.router.getOperations = () => operations;
}

/** openapi-backend's path template pattern: literal parts escaped, each `{param}` one segment. */
function templatePattern(path: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${path
      .replace(/\{[^}]+\}/g, "\0")
      .split("\0")
      .map(literal)
      .join("[^/]+")}$`,
  );
}

/**
 * openapi-backend's router compiles every operation's path template to a RegExp, and sorts the
 * candidates with lodash, on every request that is not an exact path (each poll, a noticeable share
 * of the API's CPU under load). The same matching with the patterns compiled
 * once: exact path and method first, then every operation whose pattern matches, most specific
 * (longest literal part) first, in the document's order among equals, as the library does. A
 * request it finds nothing for (404, 405, outside the API root) goes to the library's own
 * matcher, which answers those as before.
 */
function precompileRouting(api: OpenAPIBackend): void {
  const router = api.router;
  // The service's document is served at the root; under another root the library matches alone.
  if (router.apiRoot !== "/") return;
  const original = router.matchOperation.bind(router);
  const operations = router.getOperations();
  const byPattern = operations
    .map((operation) => ({
      operation,
      pattern: templatePattern(operation.path),
      specificity: operation.path.replace(/\{.*?\}/g, "").length,
    }))
    .sort((a, b) => b.specificity - a.specificity);
  router.matchOperation = ((req: Parameters<typeof original>[0], strict?: boolean) => {
    const normalized = router.normalizeRequest(req);
    // Under the root `/` every normalised path is (the library's isUnderApiRoot).
    if (normalized.path.startsWith("/")) {
      const path = router.normalizePath(normalized.path);
      const exact = operations.find((o) => o.path === path && o.method === normalized.method);
      if (exact) return exact;
      for (const candidate of byPattern) {
        if (candidate.operation.method === normalized.method && candidate.pattern.test(path)) return candidate.operation;
      }
    }
    return strict ? original(req, true) : original(req);
  }) as typeof router.matchOperation;
}
