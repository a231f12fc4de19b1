import Koa from "koa";
import type { Context, Next } from "koa";
import type { Context as OpenApiContext, OpenAPIBackend } from "openapi-backend";
import { ApiError } from "../errors/api-error.js";
import type { ApiServices, RequestState } from "./context.js";
import { cancelSolveHandler } from "./handlers/cancel-solve.js";
import { getSolveResultHandler } from "./handlers/get-solve-result.js";
import { downloadHistoryItemHandler, listHistoryHandler } from "./handlers/history.js";
import { solveEventsHandler } from "./handlers/solve-events.js";
import { submitSolveHandler } from "./handlers/submit-solve.js";
import { validateSolveHandler } from "./handlers/validate-solve.js";
import { deleteSolveResultHandler } from "./handlers/delete-solve-result.js";
import { listStrategiesHandler } from "./handlers/list-strategies.js";
import { BROKER_RETRY_AFTER_SECONDS, errorEnvelopeMiddleware } from "./middleware/error-envelope.js";
import { requestContextMiddleware } from "./middleware/request-context.js";
import { createOpsRouter } from "./ops-routes.js";
import { contractRoute } from "./contract-route.js";
import { playgroundRoute, referenceRoute } from "./playground-route.js";
import { createJsonBodyReader } from "./read-json-body.js";
import { createSpecBackend } from "./spec-backend.js";

export interface ApiApp {
  app: Koa;
  /** Readiness turns false ahead of a graceful shutdown, and answers close their keep-alive connections. */
  beginShutdown(): void;
}

/**
 * The Koa application. Middleware order: request context (id, log, timing) -> error envelope ->
 * SRE routes -> broker gate -> openapi-backend dispatch to one handler per operationId.
 */
export async function createApiApp(services: ApiServices, readiness: () => Promise<{ nats: boolean; streams: boolean }>): Promise<ApiApp> {
  let shuttingDown = false;
  const readJsonBody = createJsonBodyReader(services.config.maxBodyBytes);
  const api = await createSpecBackend({
    submitSolve: withRouteLabel(submitSolveHandler(services, readJsonBody)),
    getSolveResult: withRouteLabel(getSolveResultHandler(services)),
    listHistory: withRouteLabel(listHistoryHandler(services)),
    downloadHistoryItem: withRouteLabel(downloadHistoryItemHandler(services)),
    validateSolve: withRouteLabel(validateSolveHandler(services, readJsonBody)),
    deleteSolveResult: withRouteLabel(deleteSolveResultHandler(services)),
    getSolveEvents: withRouteLabel(solveEventsHandler(services)),
    cancelSolve: withRouteLabel(cancelSolveHandler(services)),
    listStrategies: withRouteLabel(listStrategiesHandler(services)),
    // The SRE endpoints are served by the ops router below; these entries exist because
    // openapi-backend in strict mode wants a handler for every operation in the document.
    getHealth: notRoutedHere,
    getReadiness: notRoutedHere,
    getMetrics: notRoutedHere,
    notFound: async () => {
      throw new ApiError(
        "not_found",
        "No such endpoint. The OpenAPI document at /openapi.json lists the available paths (a reference at /docs)",
      );
    },
    methodNotAllowed: async (c: OpenApiContext) => {
      // RFC 9110: a 405 names the methods the path does support.
      const allow = allowedMethods(c.api as OpenAPIBackend, c.request.path);
      throw new ApiError("method_not_allowed", `Method not allowed on this path; allowed: ${allow}`, { headers: { Allow: allow } });
    },
  });

  const app = new Koa({ proxy: false });
  app.silent = true;
  const ops = createOpsRouter(services, async () => (shuttingDown ? { nats: services.natsConnected(), streams: false } : readiness()));
  app.use(requestContextMiddleware(services));
  app.use(async (ctx: Context, next: Next) => {
    // While draining, a keep-alive connection is closed after its answer, so the client's next
    // request opens a new one, to an instance that is not stopping.
    if (shuttingDown) ctx.set("Connection", "close");
    await next();
  });
  if (services.config.selfCheckResponses) app.use(responseSelfCheck(api));
  app.use(errorEnvelopeMiddleware);
  app.use(ops.routes());
  app.use(playgroundRoute());
  app.use(referenceRoute());
  app.use(contractRoute());
  app.use(async (ctx: Context, next: Next) => {
    // While NATS is down, answer at once with 503 instead of letting the client wait on a buffer.
    if (!services.natsConnected()) {
      throw new ApiError("service_unavailable", "The task queue is temporarily unavailable. Please retry shortly", {
        retryAfterSeconds: BROKER_RETRY_AFTER_SECONDS,
      });
    }
    await next();
  });
  app.use(async (ctx: Context) => {
    await api.handleRequest(
      {
        method: ctx.method,
        path: ctx.path,
        query: ctx.query as Record<string, string>,
        headers: ctx.headers as Record<string, string>,
        body: undefined,
      },
      ctx,
    );
  });
  return {
    app,
    beginShutdown: () => {
      shuttingDown = true;
    },
  };
}

/**
 * Test and staging aid (SELF_CHECK_RESPONSES): every JSON response is validated against the
 * document's schema for its operation and status, and a mismatch is logged as an error, so a
 * test suite can fail on any response that breaks the contract, not only the ones it inspects.
 */
function responseSelfCheck(api: OpenAPIBackend) {
  return async (ctx: Context, next: Next) => {
    await next();
    const state = ctx.state as RequestState;
    if (!state.operationId || typeof ctx.body !== "object" || ctx.body === null || !ctx.response.is("json")) return;
    const result = api.validator.validateResponse(ctx.body, state.operationId, ctx.status);
    if (!result.valid) {
      state.log.error("response does not match the OpenAPI document", {
        operation: state.operationId,
        status: ctx.status,
        errors: result.errors?.slice(0, 5),
      });
    }
  };
}

type OperationHandler = (c: OpenApiContext, ctx: Context) => Promise<void>;

/** Labels metrics and logs with the path template, never the raw path (unbounded cardinality). */
function withRouteLabel(handler: OperationHandler): OperationHandler {
  return async (c, ctx) => {
    (ctx.state as RequestState).routeTemplate = c.operation.path;
    (ctx.state as RequestState).operationId = c.operation.operationId;
    await handler(c, ctx);
  };
}

const HTTP_METHODS = ["get", "head", "post", "put", "patch", "delete", "options", "trace"] as const;

/** The methods the document defines on the path a request was sent to, as an `Allow` value. */
function allowedMethods(api: OpenAPIBackend, path: string): string {
  return HTTP_METHODS.filter((method) => api.router.matchOperation({ method, path, headers: {} }) !== undefined)
    .map((m) => m.toUpperCase())
    .join(", ");
}

async function notRoutedHere(_c: OpenApiContext, _ctx: Context): Promise<void> {
  throw new ApiError("not_found", "No such endpoint");
}
