import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext } from "openapi-backend";
import { validationError } from "../../errors/api-error.js";
import type { ApiServices, RequestState } from "../context.js";
import { EventStreamSession } from "../event-stream.js";
import { ownedTask } from "../owned-task.js";

/** The `Last-Event-ID` header as a stream sequence: 0 when absent; a 422 when it is not one of ours. */
function lastEventId(ctx: KoaContext): number {
  const raw = ctx.get("last-event-id").trim();
  if (raw === "") return 0;
  if (!/^[0-9]{1,15}$/.test(raw)) {
    throw validationError([
      {
        loc: ["header", "Last-Event-ID"],
        msg: "Last-Event-ID must be the id of an event of this stream (a non-negative integer)",
        type: "value_error",
      },
    ]);
  }
  return Number(raw);
}

/** GET /api/v1/solve/events/{request_id}: the task's events as `text/event-stream`. */
export function solveEventsHandler(services: ApiServices) {
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const { task } = await ownedTask(services, ctx, String(c.request.params.request_id ?? ""));
    const after = lastEventId(ctx);
    const session: EventStreamSession = new EventStreamSession(task.id, {
      events: services.events,
      store: services.queue.store,
      log: (ctx.state as RequestState).log,
      keepAliveMs: services.config.eventsKeepAliveSeconds * 1000,
      onClose: () => services.eventStreams.remove(session),
    });
    services.eventStreams.add(session);
    // A client that leaves releases its consumer at once, also one that left while it was created.
    const leave = () => void session.close();
    ctx.res.once("close", leave);
    try {
      await session.open(after);
    } catch (err) {
      ctx.res.off("close", leave);
      await session.close();
      throw err;
    }
    if (ctx.req.destroyed) await session.close();
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set("Content-Type", "text/event-stream; charset=utf-8");
    ctx.set("Cache-Control", "no-cache, no-transform");
    ctx.set("X-Accel-Buffering", "no");
    ctx.body = session.body;
  };
}
