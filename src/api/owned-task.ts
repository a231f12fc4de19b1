import type { Context as KoaContext } from "koa";
import { ApiError } from "../errors/api-error.js";
import { MESSAGES } from "../errors/codes.js";
import type { TaskRecord } from "../queue/task-store.js";
import { authenticateCaller, type Caller } from "./auth.js";
import type { ApiServices } from "./context.js";

const TASK_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The poll's rules for reading a task, shared by the issue-13 endpoints (events, cancel):
 * authentication first, then 404 for an unknown or expired id, 403 for another account's task.
 */
export async function ownedTask(services: ApiServices, ctx: KoaContext, id: string): Promise<{ caller: Caller; task: TaskRecord }> {
  const caller = await authenticateCaller(ctx.headers, services.config, services.accounts);
  const task = TASK_ID_PATTERN.test(id) ? await services.queue.store.get(id) : null;
  if (!task) throw new ApiError("not_found", MESSAGES.notFound);
  if (task.owner !== caller.owner) throw new ApiError("forbidden", MESSAGES.forbiddenResult);
  return { caller, task };
}
