/** The document's schemas under the names partners read in it (generated: `npm run gen`). */
import type { components, operations } from "./generated/api.js";

type Schemas = components["schemas"];
export type SolveRequest = Schemas["SolveRequest"];
export type SubmitAcknowledgement = Schemas["SubmitAcknowledgement"];
export type PollProcessing = Schemas["PollProcessing"];
export type PollSolved = Schemas["PollSolved"];
export type PollFailed = Schemas["PollFailed"];
/** A poll answer: switch on `success` and `result.status` ("processing" | "solved"; null when failed). */
export type PollResult = PollProcessing | PollSolved | PollFailed;
/** A finished task: what `waitForResult` resolves with and what the completion callback carries. */
export type FinishedResult = PollSolved | PollFailed;
export type SolvedResult = Schemas["SolvedResult"];
export type CompletionCallbackBody = Schemas["CompletionCallbackBody"];
export type ValidationIssue = Schemas["ValidationIssue"];
/** A strategy a request may pin in `strategy`: its name, kind and the request features it takes. */
export type StrategyInfo = Schemas["StrategyInfo"];
/** One customer a plan leaves unserved (extension), with its reason and the numbers behind it. */
export type UnassignedNode = Schemas["UnassignedNode"];
/** Why a customer is unserved: `skipped_cheaper`, `no_vehicle_with_skills`, `shift_too_short`, ... */
export type UnassignedReason = UnassignedNode["reason"];
/** The evidence of an unassigned reason or of a proven infeasibility. */
export type ReasonEvidence = Schemas["ReasonEvidence"];

/** The partner-facing operations (not the unauthenticated health and metrics endpoints). */
type ApiOperation = operations["submitSolve" | "getSolveResult" | "listHistory" | "downloadHistoryItem"];
type JsonBody<R> = R extends { content: { "application/json": infer B } } ? B : never;
type ResponsesAt<S> = ApiOperation extends infer Op
  ? Op extends { responses: infer R }
    ? S extends keyof R
      ? R[S]
      : never
    : never
  : never;
type StatusesOf<Op> = Op extends { responses: infer R } ? keyof R : never;

/** Every HTTP error status an operation documents (4xx and 5xx). */
export type ErrorStatus = Exclude<Extract<StatusesOf<ApiOperation>, number>, 200>;
/** The documented error envelope for one status: its `code` is narrowed to that status's codes. */
export type ErrorBody<S extends ErrorStatus> = JsonBody<ResponsesAt<S>>;
