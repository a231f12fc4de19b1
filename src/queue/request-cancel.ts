import { RequestError, RequestOne } from "@nats-io/transport-node/lib/nats-base-client.js";

/** What nats-core's RequestOne.cancel reads and writes on a request. */
interface CancellableRequest {
  timer?: { cancel(): void };
  mux: { cancel(request: unknown): void };
  deferred: { reject(err: unknown): void };
}

let shared = false;

/**
 * The NATS client ends every answered request by cancelling it, and that cancel rejects the
 * request's promise, already resolved, with a new RequestError: an Error, its stack captured,
 * built and dropped for every KV read or write, publish and ack, a few percent of an API
 * instance's or a worker's CPU under load. Replaced by the same steps with one shared error for a
 * request cancelled without a reason (one whose promise is settled by then: the client cancels a
 * pending request only with its cause). Returns false, changing nothing, if the client's request
 * class is not as expected.
 */
export function shareCancelledError(): boolean {
  if (shared) return true;
  const prototype = RequestOne.prototype as unknown as { cancel?: unknown };
  if (typeof prototype.cancel !== "function" || prototype.cancel.length !== 1) return false;
  const cancelled = new RequestError("cancelled");
  prototype.cancel = function cancel(this: CancellableRequest, err?: Error): void {
    this.timer?.cancel();
    this.mux.cancel(this);
    this.deferred.reject(err ?? cancelled);
  };
  shared = true;
  return true;
}
