import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext } from "openapi-backend";
import { sendCallbackOnce } from "../../callbacks/send-once.js";
import { ApiError } from "../../errors/api-error.js";
import { MESSAGES } from "../../errors/codes.js";
import type { TaskRecord } from "../../queue/task-store.js";
import type { ApiServices, RequestState } from "../context.js";
import { successEnvelope } from "../envelope.js";
import { ownedTask } from "../owned-task.js";
import { taskEnvelope } from "../task-view.js";

type Transition = "cancelled-queued" | "stop-requested" | "none";

const CANCELLED_MESSAGE = 'The task was cancelled before it started: it failed with "cancelled by the caller".';
const CANCELLING_MESSAGE =
  "The solver was asked to stop; the task ends within about a second with the best " +
  "solution found so far (or fails if none was found). Poll, follow the events or " +
  "wait for the callback.";

/**
 * POST /api/v1/solve/{request_id}/cancel. The task record changes by compare-and-set,
 * so a cancel racing a worker that picks the task up ends in exactly one of: failed here while
 * still queued, or stopped by that worker (told through NATS, wherever it runs).
 */
export function cancelSolveHandler(services: ApiServices) {
  const { queue, admission, history, events } = services;
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const log = (ctx.state as RequestState).log;
    const { task } = await ownedTask(services, ctx, String(c.request.params.request_id ?? ""));
    const seen: { transition: Transition } = { transition: "none" };
    const current = await queue.store.update(task.id, (t) => {
      seen.transition = "none";
      if (t.state === "queued") {
        seen.transition = "cancelled-queued";
        return { ...t, state: "failed", code: "cancelled", error: MESSAGES.cancelledByCaller, diagnostics: [], cancelRequested: true };
      }
      if (t.state === "solving") {
        seen.transition = "stop-requested";
        return t.cancelRequested ? null : { ...t, cancelRequested: true };
      }
      return null;
    });
    if (!current) throw new ApiError("not_found", MESSAGES.notFound);

    if (seen.transition === "cancelled-queued") {
      await finishCancelledQueued(services, current, log);
      log.info("task cancelled while queued", { task_id: task.id });
      return answer(ctx, task.id, "cancelled", CANCELLED_MESSAGE);
    }
    if (seen.transition === "stop-requested") {
      // Sent on every cancel of a solving task: a repeat is harmless and covers a lost first message.
      services.signalCancel(task.id);
      log.info("task cancel requested while solving", { task_id: task.id });
      return answer(ctx, task.id, "cancelling", CANCELLING_MESSAGE);
    }
    if (current.cancelRequested)
      return answer(ctx, task.id, "cancelled", `The task was already cancelled and has ended (${current.state}).`);
    throw new ApiError("task_finished", `The task already ended (${current.state}); there is nothing to cancel`);
  };

  async function finishCancelledQueued(s: ApiServices, failed: TaskRecord, log: RequestState["log"]): Promise<void> {
    const envelope = taskEnvelope(failed, null);
    await Promise.all([
      admission.releaseQuota(failed.owner).catch((err: unknown) => log.error("quota not given back", { err })),
      history.finish(failed, envelope).catch((err: unknown) => log.error("history update failed", { err })),
      events.publishFinalOnce(failed.id, "failed", envelope).catch((err: unknown) => log.warn("final event not logged", { err })),
    ]);
    // The callback may take up to its timeout: it goes out after the answer. Should this process
    // die first, the worker that later pulls the task sends it (the claim is compare-and-set).
    void sendCallbackOnce(failed, { store: s.queue.store, accounts: s.accounts, config: s.config, log }).catch((err: unknown) =>
      log.error("callback failed", { err }),
    );
  }
}

function answer(ctx: KoaContext, id: string, status: "cancelled" | "cancelling", message: string): void {
  ctx.status = 200;
  ctx.body = successEnvelope(id, { status, message });
}
