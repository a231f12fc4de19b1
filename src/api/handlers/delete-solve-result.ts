import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext } from "openapi-backend";
import { ApiError } from "../../errors/api-error.js";
import { MESSAGES } from "../../errors/codes.js";
import { authenticateCaller } from "../auth.js";
import type { ApiServices, RequestState } from "../context.js";

const TASK_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * DELETE /api/v1/solve/result/{request_id} (data removal): a finished task's result, its stored
 * request body and the history's copy of the result go at once; the history entry stays, marked
 * deleted. Ownership as for the poll. A task still queued or solving is refused with 409 rather
 * than removed under a worker that would write its result back.
 */
export function deleteSolveResultHandler(services: ApiServices) {
  const { config, accounts, queue, history } = services;
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const caller = await authenticateCaller(ctx.headers, config, accounts);
    const id = String(c.request.params.request_id ?? "");
    const task = TASK_ID_PATTERN.test(id) ? await queue.store.get(id) : null;
    if (!task) throw new ApiError("not_found", MESSAGES.notFound);
    if (task.owner !== caller.owner) throw new ApiError("forbidden", MESSAGES.forbiddenResult);
    if (task.state === "queued" || task.state === "solving") {
      throw new ApiError("task_not_finished", `The task is still ${task.state}; its result can be deleted once it has finished`);
    }
    // The mark first: a worker storing the history copy at this moment sees it and removes its copy.
    await history.markDeleted(task);
    await Promise.all([queue.store.purge(id), queue.removeRequest(id), history.removeFinalBody(id)]);
    (ctx.state as RequestState).log.info("result deleted", { task_id: id });
    ctx.status = 204;
    ctx.body = null;
  };
}
