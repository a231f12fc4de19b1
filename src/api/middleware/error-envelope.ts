import type { Context, Next } from "koa";
import { ApiError } from "../../errors/api-error.js";
import type { RequestState } from "../context.js";
import { errorEnvelope } from "../envelope.js";

/**
 * NATS client failures (timeouts, a lost connection) mean "try again shortly", not a bug. So does
 * JetStreamNotEnabled: the client's name for "no responders" to a JetStream request, which on a
 * running service means a stream has no leader for the moment (a cluster node just died); the
 * API could not have started without JetStream.
 */
function isBrokerUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    /Timeout|ConnectionError|ClosedConnection|NoResponders|RequestError|Disconnect|JetStreamNotEnabled/i.test(
      err.name + " " + err.constructor.name,
    ) ||
    /timeout|connection closed|no responders|disconnect/i.test(err.message) ||
    // A cluster between leaders (a node just stopped or froze): JetStream's own "try again" answers.
    /temporarily unavailable|stream is offline|not current|leadership|no suitable peers|insufficient resources/i.test(err.message)
  );
}

export const BROKER_RETRY_AFTER_SECONDS = 5;

/**
 * The one error path: every failure leaves as the spec's envelope. ApiErrors carry their status;
 * a broker outage is a 503 with Retry-After; anything else is a logged 500 with a generic text.
 */
export async function errorEnvelopeMiddleware(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (caught) {
    const state = ctx.state as RequestState;
    let err: ApiError;
    if (caught instanceof ApiError) {
      err = caught;
    } else if (isBrokerUnavailable(caught)) {
      err = new ApiError("service_unavailable", "The task queue is temporarily unavailable. Please retry shortly", {
        retryAfterSeconds: BROKER_RETRY_AFTER_SECONDS,
      });
      state.log.warn("broker unavailable", { err: caught });
    } else {
      err = new ApiError("internal_error", "Internal server error");
      state.log.error("unhandled error", { err: caught, stack: caught instanceof Error ? caught.stack : undefined });
    }
    ctx.status = err.status;
    if (err.extra.headers) ctx.set(err.extra.headers);
    if (err.extra.retryAfterSeconds !== undefined) ctx.set("Retry-After", String(err.extra.retryAfterSeconds));
    ctx.body = errorEnvelope(state.httpRequestId, err);
  }
}
