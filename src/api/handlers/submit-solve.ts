import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext, OpenAPIBackend } from "openapi-backend";
import type { ApiServices, RequestState } from "../context.js";
import type { JsonBody } from "../read-json-body.js";
import { ApiError, validationError } from "../../errors/api-error.js";
import { planLimitMessage } from "../../errors/codes.js";
import { rateLimitHeaders } from "../../limits/admission.js";
import type { TaskRecord } from "../../queue/task-store.js";
import { authenticateCaller } from "../auth.js";
import { acceptedAck } from "../envelope.js";
import { AdmissionAbandoned } from "../../queue/task-store.js";
import { BROKER_RETRY_AFTER_SECONDS } from "../middleware/error-envelope.js";
import { taskEnvelope } from "../task-view.js";
import { validateSolveRequest } from "../validation/validate-solve-request.js";
import { randomInt } from "node:crypto";
import { claimIdempotencyKey, readIdempotencyKey } from "../idempotency-key.js";
import { profileStage } from "../../infra/stage-profile.js";

/** A quota reservation's outcome: null once reserved, else its refusal or failure. */
function reservation(reserve: Promise<void>): Promise<unknown> {
  return reserve.then(
    () => null,
    (err: unknown) => err ?? new Error("quota reservation failed"),
  );
}

function unavailable(): ApiError {
  return new ApiError("service_unavailable", "The task queue is temporarily unavailable. Please retry shortly", { retryAfterSeconds: BROKER_RETRY_AFTER_SECONDS });
}

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
    const stage = (name: string) => profileStage(state.httpRequestId, name);
    stage("api.handler");
    try {
      const caller = await authenticateCaller(ctx.headers, config, accounts);
      stage("api.authenticated");
      // Issue 24 (pipeline speed): with plenty of quota left, one task is reserved alongside the
      // rate counter (one round trip instead of two); a submit refused before the quota check
      // gives it back, so the order of checks and what a refusal costs stay as they were.
      const early = admission.quotaHasRoom(caller.owner, caller.plan) ? reservation(admission.reserveQuota(caller.owner, caller.plan)) : null;
      let quotaChecked = false;
      let claim: Awaited<ReturnType<typeof claimIdempotencyKey>>;
      let body: JsonBody;
      let depthRead: Promise<number>;
      let request: Extract<ReturnType<typeof validateSolveRequest>, { ok: true }>["request"];
      try {
        const rate = await admission.consumeRate(caller.owner, caller.plan);
        stage("api.rate");
        ctx.set(rateLimitHeaders(rate));

        body = await readJsonBody(ctx);
        const validation = validateSolveRequest(c.api as OpenAPIBackend, body.parsed, services.checkCallbackUrl);
        const idempotencyKey = readIdempotencyKey(ctx.headers);
        if (!validation.ok || idempotencyKey.issue) {
          throw validationError([...(validation.ok ? [] : validation.issues), ...(idempotencyKey.issue ? [idempotencyKey.issue] : [])]);
        }
        request = validation.request;
        stage("api.validated");

        if (request.node_num > caller.plan.maxNodes) {
          throw new ApiError("plan_limit_exceeded", planLimitMessage("Node", request.node_num, caller.plan.maxNodes));
        }
        if (request.vehicle_num > caller.plan.maxVehicles) {
          throw new ApiError("plan_limit_exceeded", planLimitMessage("Vehicle", request.vehicle_num, caller.plan.maxVehicles));
        }

        // A repeat of a submit with the same Idempotency-Key is answered here, before the quota.
        claim = await claimIdempotencyKey(ctx, { idempotency: services.idempotency, tasks: queue.store }, caller.owner, idempotencyKey.key, body.parsed);
        if (claim === true) {
          metrics.submissions.inc({ outcome: "replayed", code: "none" });
          return;
        }
        // The depth is read alongside the quota (usually from its short cache); the quota refusal
        // still wins over the busy one, as the order of checks wants.
        depthRead = queue.queueDepth();
        depthRead.catch(() => undefined);
        const quotaRefusal = await (early ?? reservation(admission.reserveQuota(caller.owner, caller.plan)));
        quotaChecked = true;
        if (quotaRefusal !== null) {
          // A refused submit does not keep its key: a retry with it is a fresh attempt.
          if (claim) await claim.release();
          throw quotaRefusal;
        }
      } finally {
        if (early && !quotaChecked && (await early) === null) await admission.releaseQuota(caller.owner).catch(() => undefined);
      }
      const releaseClaim = async () => {
        if (claim) await claim.release();
      };
      let accepted = false;
      // Set when a failed admission could not be settled (NATS unreachable): the record may exist,
      // so the Idempotency-Key stays claimed and a repeat settles it (IdempotencyStore.claim).
      let admissionUncertain = false;
      try {
        stage("api.quota");
        const depth = await depthRead;
        stage("api.depth");
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
        // Issue 24: the `queued` event is part of the admission (its failure fails the submit), so
        // an accepted task's log always starts with it; a refused submit's stray event is never
        // served (events are read through the task's record, which such a submit never has).
        const queuedEvent = services.events.publishQueued(id, taskEnvelope(task, depth + 1));
        try {
          await queue.enqueue(task, Buffer.from(body.raw, "utf8"), queuedEvent);
        } catch (err) {
          // Make sure the admission can never complete. A tombstone written (or found): nothing
          // runs, answer the error. The record found instead: our own create landed and only its
          // answer was lost, so the task is accepted after all.
          const abandoned = await queue.store.abandon(id).catch(() => null);
          if (abandoned !== false) {
            if (abandoned === null) admissionUncertain = true;
            state.log.warn("task not admitted", { task_id: id, err, certain: abandoned === true });
            throw err instanceof AdmissionAbandoned ? unavailable() : err;
          }
          state.log.warn("task admitted although its record write answered an error", { task_id: id, err });
        }
        accepted = true;
        stage("api.committed");
        state.log.info("task accepted", { task_id: id, owner: caller.owner, node_num: task.nodeNum, vehicle_num: task.vehicleNum });
        metrics.submissions.inc({ outcome: "accepted", code: "none" });
        const ack = acceptedAck(task);
        // After the commit, so a refused submit never leaves a history entry behind, and not
        // waited for (issue 24, pipeline speed): the entry is not part of the task's fate, and
        // the worker writes it when the task ends if it is missing (an API instance that died
        // right after answering, a failover that lost it). Neither write fails the accepted
        // submit; a repeat settles a claim left pending (IdempotencyStore.claim).
        if (task.channel === "direct") void history.record(task).catch((err: unknown) => state.log.error("history record failed", { task_id: id, err }));
        if (claim) await claim.complete(ack).catch((err: unknown) => state.log.error("idempotency claim not completed", { task_id: id, err }));
        stage("api.done");
        ctx.status = 200;
        ctx.body = ack;
      } finally {
        if (!accepted) {
          await admission.releaseQuota(caller.owner).catch(() => undefined);
          if (!admissionUncertain) await releaseClaim();
        }
      }
    } catch (err) {
      metrics.submissions.inc({ outcome: "rejected", code: err instanceof ApiError ? err.code : "internal_error" });
      throw err;
    }
  };
}
