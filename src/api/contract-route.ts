import { readFileSync } from "node:fs";
import { dump } from "js-yaml";
import type { Context, Next } from "koa";
import type { RequestState } from "./context.js";
import { setPageHeaders } from "./playground-route.js";
import { SPEC_PATH } from "./spec-backend.js";

/** Where to go from the root: every page and document the API serves without credentials. */
export const INDEX_LINKS = [
  { rel: "reference", href: "/docs", title: "API reference (interactive; try requests against this service)" },
  { rel: "openapi", href: "/openapi.json", title: "OpenAPI 3.1 document (JSON), the contract" },
  { rel: "openapi-yaml", href: "/openapi.yaml", title: "The same document as YAML" },
  { rel: "playground", href: "/playground", title: "Route playground (submit a problem, watch it solve, see the routes on a map)" },
  { rel: "health", href: "/healthz", title: "Liveness" },
  { rel: "readiness", href: "/readyz", title: "Readiness (NATS connected, streams present)" },
  { rel: "metrics", href: "/metrics", title: "Prometheus metrics" },
] as const;

/**
 * The contract as the service serves it: GET /openapi.json (the document byte for byte),
 * GET /openapi.yaml (the same, as YAML) and GET / (an index of the links above: HTML for a
 * browser, JSON for a client that prefers it, e.g. curl). Like the playground, outside the NATS
 * gate and openapi-backend, without credentials.
 */
export function contractRoute(specPath = SPEC_PATH) {
  const json = readFileSync(specPath, "utf8");
  const document = JSON.parse(json) as { info: { title: string; version: string } };
  // js-yaml is already a dependency of openapi-backend's parser; `noRefs` keeps it plain YAML.
  const yaml = dump(document, { noRefs: true, lineWidth: -1 });
  const html = indexPage(document.info.title, document.info.version);
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next();
    const state = ctx.state as RequestState;
    if (ctx.path === "/openapi.json") {
      state.routeTemplate = "/openapi.json";
      ctx.set("Access-Control-Allow-Origin", "*");
      ctx.type = "application/json; charset=utf-8";
      ctx.body = json;
    } else if (ctx.path === "/openapi.yaml") {
      state.routeTemplate = "/openapi.yaml";
      ctx.set("Access-Control-Allow-Origin", "*");
      ctx.type = "application/yaml; charset=utf-8";
      ctx.body = yaml;
    } else if (ctx.path === "/") {
      state.routeTemplate = "/";
      ctx.vary("Accept");
      if (ctx.accepts("json", "html") === "html") {
        setPageHeaders(ctx);
        ctx.type = "text/html; charset=utf-8";
        ctx.body = html;
      } else {
        ctx.body = { service: document.info.title, api_version: document.info.version, links: INDEX_LINKS };
      }
    } else {
      return next();
    }
  };
}

function indexPage(title: string, version: string): string {
  const items = INDEX_LINKS.map((l) => `    <li><a href="${l.href}">${l.href}</a> ${l.title}</li>`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="icon" href="/docs/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/docs/reference.css">
</head>
<body>
  <header class="bar">${title} · API version ${version}</header>
  <main class="index">
  <p>Submit a problem with <code>POST /api/v1/solve</code>; the reference explains every endpoint.</p>
  <ul>
${items}
  </ul>
  </main>
</body>
</html>
`;
}
