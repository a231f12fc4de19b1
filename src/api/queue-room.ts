import { ApiError } from "../errors/api-error.js";
import type { AdmissionRoom } from "../queue/flow-snapshot.js";
import { busyRetryAfter } from "./admit-task.js";

/**
 * The busy refusal a submit gets, if any: its own account over its plan's `max_queued` (with
 * its own depth, and a Retry-After from its own queue), or the whole service over its threshold.
 */
export function busyRefusal(room: AdmissionRoom, serviceThreshold: number): ApiError | null {
  const { accountQueued, plan } = room;
  if (accountQueued >= plan.maxQueued) {
    const retry = busyRetryAfter(accountQueued, plan.maxQueued);
    return new ApiError(
      "service_busy",
      `Service busy for this account: ${accountQueued} of its tasks are waiting in the queue, ` +
        `at most ${plan.maxQueued} on plan '${plan.name}'. Retry in ${retry} s`,
      { retryAfterSeconds: retry },
    );
  }
  if (room.serviceDepth >= serviceThreshold) {
    const retry = busyRetryAfter(room.serviceDepth, serviceThreshold);
    return new ApiError("service_busy", `Service busy: ${room.serviceDepth} tasks are waiting in the queue. Retry in ${retry} s`, {
      retryAfterSeconds: retry,
    });
  }
  return null;
}
