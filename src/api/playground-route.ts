import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Context, Next } from "koa";
import { ApiError } from "../errors/api-error.js";
import { REPO_ROOT } from "../infra/service-process.js";
import type { RequestState } from "./context.js";

/** Where `scripts/build-playground.ts` writes the bundle (`make run` and `make test` build it). */
export const PLAYGROUND_DIR = join(REPO_ROOT, "dist", "playground");

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

// Only the page's own origin: nothing is fetched from anywhere else, and no inline script runs.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * GET /playground and /playground/<asset>: the static route playground (see playground/README.md).
 * Served before the NATS gate and outside openapi-backend, so it needs no credentials (the page
 * asks for them), is not validated against the OpenAPI document, and loads while NATS is down.
 * Asset names are a flat whitelist pattern, so no path can leave the build folder.
 */
export function playgroundRoute(dir = PLAYGROUND_DIR) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path !== "/playground" && !ctx.path.startsWith("/playground/")) return next();
    (ctx.state as RequestState).routeTemplate = "/playground";
    if (ctx.method !== "GET" && ctx.method !== "HEAD") throw new ApiError("method_not_allowed", "Method not allowed on this path");
    const name = ctx.path === "/playground" || ctx.path === "/playground/" ? "index.html" : ctx.path.slice("/playground/".length);
    const type = CONTENT_TYPES[extname(name)];
    if (!/^[A-Za-z0-9_-]+\.[a-z]+$/.test(name) || type === undefined) throw new ApiError("not_found", "No such playground file");
    let body: Buffer;
    try {
      body = await readFile(join(dir, name));
    } catch {
      const hint = name === "index.html" ? ": the playground is not built (make run builds it; or npm run build:playground)" : "";
      throw new ApiError("not_found", `No such playground file${hint}`);
    }
    ctx.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Referrer-Policy", "no-referrer");
    ctx.set("Cache-Control", "no-cache");
    ctx.type = type;
    ctx.body = body;
  };
}
