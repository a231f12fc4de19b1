import Router from "@koa/router";
import type { ApiServices, RequestState } from "./context.js";

/** SRE endpoints, without authentication: liveness, readiness and the Prometheus scrape. */
export function createOpsRouter(services: ApiServices, readiness: () => Promise<{ nats: boolean; streams: boolean }>): Router {
  const router = new Router();
  router.get("/healthz", (ctx) => {
    Object.assign(ctx.state as RequestState, { routeTemplate: "/healthz", operationId: "getHealth" });
    ctx.body = { status: "ok" };
  });
  router.get("/readyz", async (ctx) => {
    Object.assign(ctx.state as RequestState, { routeTemplate: "/readyz", operationId: "getReadiness" });
    const checks = await readiness();
    const ready = checks.nats && checks.streams;
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? "ready" : "not_ready", checks };
  });
  router.get("/metrics", async (ctx) => {
    (ctx.state as RequestState).routeTemplate = "/metrics";
    ctx.type = services.metrics.registry.contentType;
    ctx.body = await services.metrics.registry.metrics();
  });
  return router;
}
