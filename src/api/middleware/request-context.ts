import { randomUUID } from "node:crypto";
import type { Context, Next } from "koa";
import type { ApiServices, RequestState } from "../context.js";
import { profileStage } from "../../infra/stage-profile.js";

/**
 * Outermost middleware: gives each request an unguessable id (UUIDv4, 122 random bits), a child
 * logger carrying it, and records the duration histogram after the error envelope has set the
 * final status.
 */
export function requestContextMiddleware(services: ApiServices) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const httpRequestId = randomUUID();
    const state = ctx.state as RequestState;
    state.httpRequestId = httpRequestId;
    profileStage(httpRequestId, "api.received");
    state.routeTemplate = "unmatched";
    state.log = services.log.child({ request_id: httpRequestId });
    ctx.set("X-Request-Id", httpRequestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      services.metrics.httpDuration.observe({ method: ctx.method, route: state.routeTemplate, status: String(ctx.status) }, seconds);
      state.log.info("http request", {
        method: ctx.method,
        route: state.routeTemplate,
        status: ctx.status,
        ms: Math.round(seconds * 1000),
      });
    }
  };
}
