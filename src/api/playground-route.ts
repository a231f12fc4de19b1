import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Context, Next } from "koa";
import { ApiError } from "../errors/api-error.js";
import { REPO_ROOT } from "../infra/service-process.js";
import type { RequestState } from "./context.js";

/** Where `scripts/build-playground.ts` writes the bundle (`make run` and `make test` build it). */
export const PLAYGROUND_DIR = join(REPO_ROOT, "dist", "playground");
/** Where `scripts/build-reference.ts` writes the API reference page. */
export const REFERENCE_DIR = join(REPO_ROOT, "dist", "reference");

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

// Only the page's own origin: nothing is fetched from anywhere else, and no inline script runs.
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: " +
  "blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action " +
  "'none'; frame-ancestors 'none'";

/** The headers every page the API serves itself carries (playground, reference, index). */
export function setPageHeaders(ctx: Context): void {
  ctx.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set("Cache-Control", "no-cache");
}

/**
 * GET `prefix` and `prefix`/<asset>: a static page built into `dir`. Served before the NATS gate
 * and outside openapi-backend, so it needs no credentials, is not validated against the OpenAPI
 * document, and loads while NATS is down. Asset names are a flat whitelist pattern, so no path
 * can leave the build folder.
 */
export function staticPageRoute(prefix: string, dir: string, what: string, buildHint: string) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
    (ctx.state as RequestState).routeTemplate = prefix;
    if (ctx.method !== "GET" && ctx.method !== "HEAD") throw new ApiError("method_not_allowed", "Method not allowed on this path");
    const name = ctx.path === prefix || ctx.path === `${prefix}/` ? "index.html" : ctx.path.slice(prefix.length + 1);
    const type = CONTENT_TYPES[extname(name)];
    if (!/^[A-Za-z0-9_-]+\.[a-z]+$/.test(name) || type === undefined) throw new ApiError("not_found", `No such ${what} file`);
    let body: Buffer;
    try {
      body = await readFile(join(dir, name));
    } catch {
      const hint = name === "index.html" ? `: the ${what} is not built (make run builds it; or ${buildHint})` : "";
      throw new ApiError("not_found", `No such ${what} file${hint}`);
    }
    setPageHeaders(ctx);
    ctx.type = type;
    ctx.body = body;
  };
}

/** GET /playground and /playground/<asset>: the static route playground (see playground/README.md). */
export function playgroundRoute(dir = PLAYGROUND_DIR) {
  return staticPageRoute("/playground", dir, "playground", "npm run build:playground");
}

/** GET /docs and /docs/<asset>: the interactive API reference (Swagger UI over /openapi.json). */
export function referenceRoute(dir = REFERENCE_DIR) {
  return staticPageRoute("/docs", dir, "API reference", "npm run build:reference");
}
