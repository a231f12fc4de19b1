import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext } from "openapi-backend";
import { ApiError } from "../../errors/api-error.js";
import { MESSAGES } from "../../errors/codes.js";
import { authenticateCaller } from "../auth.js";
import type { ApiServices } from "../context.js";
import { taskEnvelope } from "../task-view.js";
import { includeBest, withProgress } from "../progress-view.js";
import { profileSent, profileStage } from "../../infra/stage-profile.js";
import { isFinished } from "../../queue/task-store.js";
import { readUntil, waitSeconds } from "../result-waits.js";

const TASK_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * GET /api/v1/solve/result/{request_id}: any valid key of the owning account may read it. With
 * `wait_seconds`, a poll of an unfinished task answers as soon as it finishes, or when the wait
 * runs out with the task as it then stands.
 */
export function getSolveResultHandler(services: ApiServices) {
  const { config, accounts, queue } = services;
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const id = String(c.request.params.request_id ?? "");
    profileStage(id, "p.handler");
    const caller = await authenticateCaller(ctx.headers, config, accounts);
    const wantBest = includeBest(ctx.query.include);
    const wait = waitSeconds(ctx.query.wait_seconds);
    let task = TASK_ID_PATTERN.test(id) ? await queue.store.get(id) : null;
    if (task && task.owner === caller.owner && wait > 0 && !isFinished(task)) {
      const waiting = services.resultWaits.begin(id);
      if (waiting) {
        const leave = () => waiting.release();
        ctx.res.once("close", leave);
        try {
          task = await readUntil(waiting, wait, () => queue.store.get(id), isFinished);
        } finally {
          ctx.res.off("close", leave);
          waiting.release();
        }
      }
    }
    profileStage(id, "p.read");
    profileSent(id, "p.sent", ctx.res);
    if (!task) throw new ApiError("not_found", MESSAGES.notFound);
    if (task.owner !== caller.owner) throw new ApiError("forbidden", MESSAGES.forbiddenResult);
    const depth = task.state === "queued" ? await queue.tasksAhead(task) : null;
    const body = taskEnvelope(task, depth);
    ctx.status = 200;
    // A solving task's progress, and with ?include=best its best solution so far.
    ctx.body = task.state === "solving" ? withProgress(body, task, await services.progress.get(id), wantBest) : body;
  };
}
