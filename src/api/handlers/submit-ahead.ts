import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext, OpenAPIBackend } from "openapi-backend";
import { ApiError, validationError } from "../../errors/api-error.js";
import { planLimitMessage } from "../../errors/codes.js";
import { profileStage } from "../../infra/stage-profile.js";
import { rateLimitHeaders } from "../../limits/admission.js";
import type { TaskRecord } from "../../queue/task-store.js";
import { historyEntryOf, newTaskRecord, queuedEventOf, undoWrites } from "../admit-task.js";
import { busyRefusal } from "../queue-room.js";
import type { AdmissionRoom } from "../../queue/flow-snapshot.js";
import type { PreparedMessage } from "../../queue/task-message.js";
import type { Caller } from "../auth.js";
import type { ApiServices, RequestState } from "../context.js";
import type { JsonBody } from "../read-json-body.js";
import { taskEnvelope } from "../task-view.js";
import { validateSolveRequest } from "../validation/validate-solve-request.js";

type Settled<T> = { ok: true; value: T } | { ok: false; err: unknown };

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, err }),
  );
}

/**
 * Bodies up to this size are read while the rate counter's round trip is out; a larger one is
 * read only once the rate check has passed (as on the ordinary path), so a client over its rate
 * cannot make the service read large bodies.
 */
const AHEAD_MAX_BODY_BYTES = 256 * 1024;

/**
 * The submit's checks with the admission's writes sent ahead (pipeline speed). Used
 * only when every limit is far away (quota reserved early, rate counter far below its limit as
 * this process last saw it, queue depth known from its cache) and without an Idempotency-Key.
 *
 * The rate counter's compare-and-set goes out first; meanwhile the body is read and validated,
 * and if it is acceptable so far (valid, within the plan, queue not busy) what precedes the commit
 * is written at once, before the rate's answer is in: with the message as the commit point the
 * `queued` event, the history entry (and a large body), in the older layout the body, the task message and the
 * `queued` event. Then the checks are answered in the spec's order (rate, body, validation, plan
 * limits, quota, busy); a refusal after the writes undoes them with a tombstone (admit-task.ts,
 * undoWrites), so the task can never be admitted (its message, if any, is dropped by the worker
 * that takes it) and a poll of its id finds nothing: a refused submit still leaves nothing that
 * can run or be polled. Nothing is committed here; the caller commits (the message's publish, or
 * the record's create) once the writes are stored. Resolves with the task, its writes (`prepared`
 * with the `queued` event's sequence for the message layout) and the request body as written;
 * throws the first refusal in the order of checks.
 */
export async function submitAhead(
  services: ApiServices,
  c: OpenApiContext,
  ctx: KoaContext,
  caller: Caller,
  earlyQuota: Promise<unknown>,
  readJsonBody: (ctx: KoaContext) => Promise<JsonBody>,
): Promise<{
  task: TaskRecord;
  writes: Promise<void> | null;
  prepared: Promise<PreparedMessage> | null;
  body: string;
  room: AdmissionRoom;
}> {
  const { admission, queue, config } = services;
  // With the message as the commit point the message itself cannot go ahead of the checks (it
  // would run): only its `queued` event does, which nothing runs from.
  const writeAhead = config.taskCommit === "record";
  const state = ctx.state as RequestState;
  const rateCheck = settle(admission.consumeRate(caller.owner, caller.plan));
  let writes: Promise<void> | null = null;
  let prepared: Promise<PreparedMessage> | null = null;
  let task: TaskRecord | null = null;
  let quotaChecked = false;
  try {
    const declared = Number(ctx.get("content-length") || "0");
    const read = declared <= AHEAD_MAX_BODY_BYTES ? await settle(readJsonBody(ctx)) : null;
    const validation = read?.ok ? validateSolveRequest(c.api as OpenAPIBackend, read.value.parsed, services.checkCallbackUrl) : null;
    const room = queue.cachedRoomFor(caller.owner, caller.plan);
    if (read?.ok && validation?.ok && room !== null && busyRefusal(room, config.busyQueueThreshold) === null) {
      const request = validation.request;
      if (request.node_num <= caller.plan.maxNodes && request.vehicle_num <= caller.plan.maxVehicles) {
        task = newTaskRecord(state.httpRequestId, caller, request);
        if (writeAhead) {
          const queuedEvent = services.events.publishQueued(task.id, taskEnvelope(task, room.ahead));
          writes = queue.writeAdmission(task, Buffer.from(read.value.raw, "utf8"), queuedEvent, room);
          writes.catch(() => undefined);
        } else {
          const events = queuedEventOf(services.events, room.ahead);
          prepared = queue.prepareMessage(task, read.value.raw, room, events, historyEntryOf(services.history));
        }
      }
    }

    // The checks in the spec's order: the first refusal answers.
    const rate = await rateCheck;
    if (!rate.ok) throw rate.err;
    profileStage(state.httpRequestId, "api.rate");
    ctx.set(rateLimitHeaders(rate.value));
    const body = read ?? (await settle(readJsonBody(ctx)));
    if (!body.ok) throw body.err;
    const checked = validation ?? validateSolveRequest(c.api as OpenAPIBackend, body.value.parsed, services.checkCallbackUrl);
    if (!checked.ok) throw validationError(checked.issues);
    const request = checked.request;
    if (request.node_num > caller.plan.maxNodes)
      throw new ApiError("plan_limit_exceeded", planLimitMessage("Node", request.node_num, caller.plan.maxNodes));
    if (request.vehicle_num > caller.plan.maxVehicles)
      throw new ApiError("plan_limit_exceeded", planLimitMessage("Vehicle", request.vehicle_num, caller.plan.maxVehicles));
    const quotaRefusal = await earlyQuota;
    quotaChecked = true;
    if (quotaRefusal !== null) throw quotaRefusal;
    profileStage(state.httpRequestId, "api.quota");
    // The queue as it was when the writes went out (or is now, for a body read late).
    const roomNow = room ?? (await queue.roomFor(caller.owner, caller.plan));
    const busy = busyRefusal(roomNow, config.busyQueueThreshold);
    if (busy) {
      await admission.releaseQuota(caller.owner).catch(() => undefined);
      throw busy;
    }
    if (!writeAhead) {
      // Read after the rate check (a large body): the `queued` event goes out at the commit.
      const result = {
        task: task ?? newTaskRecord(state.httpRequestId, caller, request),
        writes: null,
        prepared,
        body: body.value.raw,
        room: roomNow,
      };
      prepared = null; // handed over: the caller commits or undoes it
      return result;
    }
    if (!task || !writes) {
      // Read after the rate check (a large body): the writes go out now, as on the ordinary path.
      task = newTaskRecord(state.httpRequestId, caller, request);
      const queuedEvent = services.events.publishQueued(task.id, taskEnvelope(task, roomNow.ahead));
      writes = queue.writeAdmission(task, Buffer.from(body.value.raw, "utf8"), queuedEvent, roomNow);
    }
    const result = { task, writes, prepared: null, body: body.value.raw, room: roomNow };
    writes = null; // handed over: the caller commits or undoes them
    return result;
  } finally {
    if (!quotaChecked && (await earlyQuota) === null) await admission.releaseQuota(caller.owner).catch(() => undefined);
    // Record-first writes are undone behind the answer: without the record's create (never sent on
    // this path) nothing can run or be polled, and the tombstone only lets the worker drop the
    // message at once. A `queued` event written ahead is found by a poll until its tombstone is
    // stored, so the refusal is answered after it.
    if (writes && task) void undoWrites(queue, task.id, writes);
    const refused = task;
    if (prepared && refused) await undoWrites(queue, refused.id, prepared, () => services.history.forget(refused));
  }
}
