import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext, OpenAPIBackend } from "openapi-backend";
import type { ApiServices, RequestState } from "../context.js";
import type { JsonBody } from "../read-json-body.js";
import { ApiError, validationError } from "../../errors/api-error.js";
import { planLimitMessage } from "../../errors/codes.js";
import { rateLimitHeaders } from "../../limits/admission.js";
import { authenticateCaller } from "../auth.js";
import { acceptedAck } from "../envelope.js";
import { taskEnvelope } from "../task-view.js";
import { validateSolveRequest } from "../validation/validate-solve-request.js";
import { claimIdempotencyKey, readIdempotencyKey } from "../idempotency-key.js";
import { profileSent, profileStage } from "../../infra/stage-profile.js";
import {
  busyRetryAfter,
  commitAdmission,
  commitMessage,
  historyEntryOf,
  newTaskRecord,
  queuedEventOf,
  type ValidRequest,
} from "../admit-task.js";
import { busyRefusal } from "../queue-room.js";
import type { AdmissionRoom } from "../../queue/flow-snapshot.js";
import type { TaskRecord } from "../../queue/task-store.js";
import type { PreparedMessage } from "../../queue/task-message.js";
import { submitAhead } from "./submit-ahead.js";

/** A quota reservation's outcome: null once reserved, else its refusal or failure. */
function reservation(reserve: Promise<void>): Promise<unknown> {
  return reserve.then(
    () => null,
    (err: unknown) => err ?? new Error("quota reservation failed"),
  );
}

export { busyRetryAfter };

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
      // With plenty of quota left, one task is reserved alongside the
      // rate counter (one round trip instead of two); a submit refused before the quota check
      // gives it back, so the order of checks and what a refusal costs stay as they were.
      const early = admission.quotaHasRoom(caller.owner, caller.plan)
        ? reservation(admission.reserveQuota(caller.owner, caller.plan))
        : null;
      // Far from every limit, without an Idempotency-Key, the admission's writes go
      // out alongside the rate counter too (submit-ahead.ts): one dependent round trip less.
      if (
        early &&
        ctx.headers["idempotency-key"] === undefined &&
        admission.rateHasRoom(caller.owner, caller.plan) &&
        queue.cachedDepth() !== null
      ) {
        const ahead = await submitAhead(services, c, ctx, caller, early, readJsonBody);
        const commit = ahead.writes
          ? byRecord(ahead.task, ahead.writes, ahead.body)
          : byMessage(ahead.task, ahead.body, ahead.room, ahead.prepared);
        await accept(ahead.task, commit, null);
        return;
      }
      let quotaChecked = false;
      let claim: Awaited<ReturnType<typeof claimIdempotencyKey>>;
      let body: JsonBody;
      let roomRead: Promise<AdmissionRoom>;
      let request: ValidRequest;
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
        claim = await claimIdempotencyKey(
          ctx,
          { idempotency: services.idempotency, tasks: queue.store, forget: (id) => history.forgetAbandoned(caller.owner, id) },
          caller.owner,
          idempotencyKey.key,
          body.parsed,
        );
        if (claim === true) {
          metrics.submissions.inc({ outcome: "replayed", code: "none" });
          return;
        }
        // The queue's figures are read alongside the quota (usually from their short cache); the
        // quota refusal still wins over the busy one, as the order of checks wants.
        roomRead = queue.roomFor(caller.owner, caller.plan);
        roomRead.catch(() => undefined);
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
      let busyChecked = false;
      try {
        stage("api.quota");
        const room = await roomRead;
        stage("api.depth");
        const busy = busyRefusal(room, config.busyQueueThreshold);
        if (busy) throw busy;
        busyChecked = true;
        const task = newTaskRecord(state.httpRequestId, caller, request);
        if (config.taskCommit === "message") {
          await accept(task, byMessage(task, body.raw, room), claim);
        } else {
          // The `queued` event is part of the admission (its failure fails the submit), so
          // an accepted task's log always starts with it; a refused submit's stray event is never
          // served (events are read through the task's record, which such a submit never has).
          const queuedEvent = services.events.publishQueued(task.id, taskEnvelope(task, room.ahead));
          const writes = queue.writeAdmission(task, Buffer.from(body.raw, "utf8"), queuedEvent, room);
          await accept(task, byRecord(task, writes, body.raw), claim);
        }
      } finally {
        if (!busyChecked) {
          await admission.releaseQuota(caller.owner).catch(() => undefined);
          if (claim) await claim.release();
        }
      }
    } catch (err) {
      metrics.submissions.inc({ outcome: "rejected", code: err instanceof ApiError ? err.code : "internal_error" });
      throw err;
    }

    type Commit = (outcome: { uncertain: boolean }) => Promise<void>;

    /** The older layout's commit: the record's `create` once the writes under way are stored. */
    function byRecord(task: TaskRecord, writes: Promise<void>, requestBody: string): Commit {
      return (outcome) =>
        commitAdmission(queue, task, writes, state.log, outcome, (record, revision) =>
          services.announceAdmitted(record, revision, requestBody),
        );
    }

    /**
     * The task message as the commit point, its `queued` event (with the record) and its history
     * entry written first: `prepared` when they were written ahead of the checks (submit-ahead.ts),
     * else now.
     */
    function byMessage(
      task: TaskRecord,
      requestBody: string,
      room: AdmissionRoom,
      prepared: Promise<PreparedMessage> | null = null,
    ): Commit {
      return (outcome) => {
        const written =
          prepared ?? queue.prepareMessage(task, requestBody, room, queuedEventOf(services.events, room.ahead), historyEntryOf(history));
        const commit = queue.publishCommitted(task, requestBody, room, written);
        return commitMessage(queue, task, commit, state.log, outcome, () => history.forget(task));
      };
    }

    /**
     * Commits the admission and answers the acknowledgement; on a
     * failure gives the quota back and frees the Idempotency-Key (unless the admission could
     * not be settled: the record may exist, so a repeat settles the claim, IdempotencyStore.claim).
     */
    async function accept(
      task: TaskRecord,
      commit: Commit,
      claim: Exclude<Awaited<ReturnType<typeof claimIdempotencyKey>>, true>,
    ): Promise<void> {
      const outcome = { uncertain: false };
      let accepted = false;
      try {
        await commit(outcome);
        accepted = true;
      } finally {
        if (!accepted) {
          await admission.releaseQuota(task.owner).catch(() => undefined);
          if (claim && !outcome.uncertain) await claim.release();
        }
      }
      stage("api.committed");
      state.log.info("task accepted", { task_id: task.id, owner: task.owner, node_num: task.nodeNum, vehicle_num: task.vehicleNum });
      metrics.submissions.inc({ outcome: "accepted", code: "none" });
      const ack = acceptedAck(task);
      // The older layout's entry: after the commit, so a refused submit never leaves a history
      // entry behind, and not waited for (pipeline speed): the entry is not part of the task's
      // fate, and the worker writes it when the task ends if it is missing (an API instance that
      // died right after answering, a failover that lost it). Neither write fails the accepted
      // submit; a repeat settles a claim left pending (IdempotencyStore.claim). A task committed
      // as its message had its entry written before the commit (byMessage).
      if (task.channel === "direct" && config.taskCommit !== "message")
        void history.record(task).catch((err: unknown) => state.log.error("history record failed", { task_id: task.id, err }));
      if (claim)
        await claim.complete(ack).catch((err: unknown) => state.log.error("idempotency claim not completed", { task_id: task.id, err }));
      stage("api.done");
      profileSent(task.id, "api.sent", ctx.res);
      ctx.status = 200;
      ctx.body = ack;
    }
  };
}
