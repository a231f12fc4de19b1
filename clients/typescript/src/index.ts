export { VrpClient, isFinished, type ClientOptions, type WaitOptions } from "./client.js";
export { credentialHeaders, type Credentials } from "./credentials.js";
export { ApiError, isApiError, UnexpectedResponseError, WaitTimeoutError, type VrpApiError } from "./errors.js";
export { verifyCallback, CallbackVerificationError, type CallbackRequest } from "./callback.js";
export { POLL_SCHEDULE_MS, parseRetryAfter } from "./wait.js";
export type * from "./types.js";
export type { paths, components, operations } from "./generated/api.js";
