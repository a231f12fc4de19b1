import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext, OpenAPIBackend } from "openapi-backend";
import type { ApiServices, RequestState } from "../context.js";
import type { JsonBody } from "../read-json-body.js";
import { ApiError, validationError } from "../../errors/api-error.js";
import { planLimitMessage } from "../../errors/codes.js";
import { rateLimitHeaders } from "../../limits/admission.js";
import type { TaskRecord } from "../../queue/task-store.js";
import { authenticateCaller } from "../auth.js";
import { successEnvelope } from "../envelope.js";
import { taskEnvelope } from "../task-view.js";
import { validateSolveRequest } from "../validation/validate-solve-request.js";
import { randomInt } from "node:crypto";
import { claimIdempotencyKey, readIdempotencyKey } from "../idempotency-key.js";

/** Seconds a busy client should wait: the backlog divided by recent throughput, within sane bounds. */
export function busyRetryAfter(depth: number, threshold: number): number {
  return Math.min(300, Math.max(5, Math.ceil((depth - threshold + 1) * 2)));
}

/**
 * POST /api/v1/solve, in the order of checks of decisions.md: authentication, API access,
 * per-minute rate, body validation, plan limits, monthly quota, busy queue, then accepted.
 */
export function submitSolveHandler(services: ApiServices, readJsonBody: (ctx: KoaContext) => Promise<JsonBody>) {
  const { config, accounts, admission, queue, history, metrics } = services;
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const state = ctx.state as RequestState;
    try {
      const caller = await authenticateCaller(ctx.headers, config, accounts);
      const rate = await admission.consumeRate(caller.owner, caller.plan);
      ctx.set(rateLimitHeaders(rate));

      const body = await readJsonBody(ctx);
      const validation = validateSolveRequest(c.api as OpenAPIBackend, body.parsed, services.checkCallbackUrl);
      const idempotencyKey = readIdempotencyKey(ctx.headers);
      if (!validation.ok || idempotencyKey.issue) {
        throw validationError([...(validation.ok ? [] : validation.issues), ...(idempotencyKey.issue ? [idempotencyKey.issue] : [])]);
      }
      const request = validation.request;

      if (request.node_num > caller.plan.maxNodes) {
        throw new ApiError("plan_limit_exceeded", planLimitMessage("Node", request.node_num, caller.plan.maxNodes));
      }
      if (request.vehicle_num > caller.plan.maxVehicles) {
        throw new ApiError("plan_limit_exceeded", planLimitMessage("Vehicle", request.vehicle_num, caller.plan.maxVehicles));
      }

      // A repeat of a submit with the same Idempotency-Key is answered here, before the quota.
      const claim = await claimIdempotencyKey(ctx, { idempotency: services.idempotency, tasks: queue.store }, caller.owner, idempotencyKey.key, body.parsed);
      if (claim === true) {
        metrics.submissions.inc({ outcome: "replayed", code: "none" });
        return;
      }
      // A refused submit does not keep its key: a retry with it is a fresh attempt.
      const releaseClaim = async () => {
        if (claim) await claim.release().catch(() => undefined);
      };

      // The depth is read alongside the quota (usually from its short cache); the quota refusal
      // still wins over the busy one, as the order of checks wants.
      const depthRead = queue.queueDepth();
      depthRead.catch(() => undefined);
      await admission.reserveQuota(caller.owner, caller.plan).catch(async (err: unknown) => {
        await releaseClaim();
        throw err;
      });
      let accepted = false;
      try {
        const depth = await depthRead;
        if (depth >= config.busyQueueThreshold) {
          const retry = busyRetryAfter(depth, config.busyQueueThreshold);
          throw new ApiError("service_busy", `Service busy: ${depth} tasks are waiting in the queue. Retry in ${retry} s`, { retryAfterSeconds: retry });
        }
        // The HTTP request's id becomes the task's id: one identifier in the body, header and logs.
        const id = state.httpRequestId;
        const now = new Date().toISOString();
        const task: TaskRecord = {
          id,
          owner: caller.owner,
          channel: caller.channel,
          state: "queued",
          submittedAt: now,
          updatedAt: now,
          name: request.name ?? null,
          nodeNum: request.node_num,
          vehicleNum: request.vehicle_num,
          objective: request.objective ?? "min_total_distance",
          // Omitted means the plan's maximum; above it is silently replaced by it (spec 2.1).
          timeLimitSeconds: Math.min(request.time_limit_seconds ?? caller.plan.maxSolveSeconds, caller.plan.maxSolveSeconds),
          strategy: request.strategy ?? null,
          callbackUrl: request.callback_url ?? null,
          solveAttempts: 0,
          // Fixed here, not in the worker, so that a redelivered task searches exactly as before.
          seed: request.seed ?? randomInt(0, 2 ** 31),
        };
        // The history entry is written alongside the task's own records, before the publish, so a
        // worker that finishes the task at once always finds it to update. Its failure is logged,
        // not fatal; if the task is not accepted after all, the entry is taken back.
        const recorded =
          task.channel === "direct"
            ? history.record(task).then(
                () => true,
                (err: unknown) => {
                  state.log.error("history record failed", { task_id: id, err });
                  return false;
                },
              )
            : Promise.resolve(false);
        // Issue 13: the task's event log starts with `queued`, logged before any worker can take it.
        const queuedEvent = services.events
          .publish(id, "queued", taskEnvelope(task, depth + 1))
          .catch((err: unknown) => state.log.warn("queued event not logged", { task_id: id, err }));
        try {
          await queue.enqueue(task, Buffer.from(body.raw, "utf8"), Promise.all([recorded, queuedEvent]));
        } catch (err) {
          if (await recorded) await history.remove(task).catch(() => undefined);
          throw err;
        }
        accepted = true;
        state.log.info("task accepted", { task_id: id, owner: caller.owner, node_num: task.nodeNum, vehicle_num: task.vehicleNum });
        metrics.submissions.inc({ outcome: "accepted", code: "none" });
        const ack = successEnvelope(id, {
          status: "accepted",
          phase: "queued",
          message: `Task accepted. Poll GET /api/v1/solve/result/${id} (waits of 2 s, 3 s, then 5 s) or wait for the callback.`,
        });
        if (task.expiresAt) ack.expires_at = task.expiresAt;
        if (claim) await claim.complete(ack).catch((err: unknown) => state.log.error("idempotency claim not completed", { task_id: id, err }));
        ctx.status = 200;
        ctx.body = ack;
      } finally {
        if (!accepted) {
          await admission.releaseQuota(caller.owner).catch(() => undefined);
          await releaseClaim();
        }
      }
    } catch (err) {
      metrics.submissions.inc({ outcome: "rejected", code: err instanceof ApiError ? err.code : "internal_error" });
      throw err;
    }
  };
}
