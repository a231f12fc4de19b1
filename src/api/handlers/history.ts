import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext, OpenAPIBackend } from "openapi-backend";
import { ApiError, validationError } from "../../errors/api-error.js";
import { MESSAGES } from "../../errors/codes.js";
import { authenticateCaller } from "../auth.js";
import type { ApiServices, RequestState } from "../context.js";
import { successEnvelope } from "../envelope.js";
import { taskEnvelope } from "../task-view.js";
import { ajvIssues } from "../validation/ajv-issues.js";

/** GET /api/v1/history: the account's direct tasks, newest first, cursor-paginated. */
export function listHistoryHandler(services: ApiServices) {
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const caller = await authenticateCaller(ctx.headers, services.config, services.accounts);
    // Unknown query parameters are ignored, as on every operation (cache-busting clients and
    // proxies add their own), so only the documented ones are validated.
    const check = (c.api as OpenAPIBackend).validator.validateRequest({ ...c.request, query: documentedQuery(c) }, c.operation);
    if (!check.valid) throw validationError(ajvIssues(check.errors ?? []));
    const limit = Number(c.request.query.limit ?? 20);
    const cursor = typeof c.request.query.cursor === "string" ? c.request.query.cursor : null;
    // A cursor that is not this account's would otherwise read as an empty page: "end of history".
    if (cursor !== null && !services.history.isCursorOf(caller.owner, cursor)) {
      throw validationError([
        {
          loc: ["query", "cursor"],
          msg: "cursor is not a next_cursor of this account's history; list again without it",
          type: "value_error",
        },
      ]);
    }
    const page = await services.history.list(caller.owner, limit, cursor);
    ctx.status = 200;
    ctx.body = successEnvelope((ctx.state as RequestState).httpRequestId, { items: page.items, next_cursor: page.nextCursor });
  };
}

function documentedQuery(c: OpenApiContext): Record<string, string | string[]> {
  const names = new Set((c.operation.parameters ?? []).flatMap((p) => ("in" in p && p.in === "query" ? [p.name] : [])));
  return Object.fromEntries(Object.entries(c.request.query as Record<string, string | string[]>).filter(([name]) => names.has(name)));
}

/** GET /api/v1/history/{request_id}: the request and its result as one JSON attachment. */
export function downloadHistoryItemHandler(services: ApiServices) {
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const caller = await authenticateCaller(ctx.headers, services.config, services.accounts);
    const id = String(c.request.params.request_id ?? "");
    const entry = /^[0-9a-f-]{36}$/.test(id) ? await services.history.find(caller.owner, id) : null;
    if (!entry) {
      // Someone else's task answers 403 only when it still exists; otherwise the id is unknown.
      const task = /^[0-9a-f-]{36}$/.test(id) ? await services.queue.store.get(id) : null;
      if (task && task.owner !== caller.owner) throw new ApiError("forbidden", MESSAGES.forbiddenResult);
      throw new ApiError("not_found", MESSAGES.notFound);
    }
    const [kept, task] = await Promise.all([services.history.keptDownload(id), services.queue.store.get(id)]);
    // A request that came inside the task message is kept with the final body; others in the request-body bucket.
    let request = kept?.request;
    if (request === undefined) {
      const blob = await services.queue.loadRequest(id);
      request = blob ? (JSON.parse(Buffer.from(blob).toString("utf8")) as unknown) : null;
    }
    const result = kept?.result ?? (task ? taskEnvelope(task, null) : null);
    ctx.status = 200;
    ctx.set("Content-Disposition", `attachment; filename="vrp-task-${id}.json"`);
    ctx.body = {
      request_id: id,
      submitted_at: entry.submitted_at,
      state: task ? task.state : entry.state,
      request,
      result,
    };
  };
}
