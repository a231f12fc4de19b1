import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext, OpenAPIBackend } from "openapi-backend";
import type { components } from "../../../generated/api.js";
import { ApiError, validationError, type ValidationIssue } from "../../errors/api-error.js";
import { planLimitMessage } from "../../errors/codes.js";
import { rateLimitHeaders } from "../../limits/admission.js";
import { compileRequest, requestDistance } from "../../problem/compile-request.js";
import { infeasibilities, type Infeasibility } from "../../problem/diagnostics.js";
import type { SolveRequestInput } from "../../problem/request-types.js";
import { authenticateCaller, type Caller } from "../auth.js";
import type { ApiServices, RequestState } from "../context.js";
import { successEnvelope } from "../envelope.js";
import type { JsonBody } from "../read-json-body.js";
import { validateSolveRequest } from "../validation/validate-solve-request.js";
import { busyRetryAfter } from "./submit-solve.js";

type ValidationReport = components["schemas"]["ValidationReport"];
type Rejection = components["schemas"]["Rejection"];

/** Cross-field issues that leave the request well-formed enough to compile (e.g. a window out of order). */
const COMPILABLE_ISSUE_TYPES = new Set(["value_error", "greater_than_equal", "url_not_allowed"]);

function rejectionOf(err: ApiError): Rejection {
  return {
    status: err.status as Rejection["status"],
    code: err.code,
    error: err.message,
    ...(err.extra.detail ? { detail: err.extra.detail } : {}),
    ...(err.extra.retryAfterSeconds !== undefined ? { retry_after_seconds: err.extra.retryAfterSeconds } : {}),
  };
}

/**
 * POST /api/v1/solve/validate: a submit's checks without a task. Authentication, API access and
 * the per-minute rate answer as errors, exactly as on submit; everything about the body (and the
 * quota and queue it would meet) is reported in a 200, with the infeasibilities a pre-check can
 * prove. Nothing is queued and no quota is used.
 */
export function validateSolveHandler(services: ApiServices, readJsonBody: (ctx: KoaContext) => Promise<JsonBody>) {
  const { config, accounts, admission } = services;
  return async (c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    const caller = await authenticateCaller(ctx.headers, config, accounts);
    ctx.set(rateLimitHeaders(await admission.consumeRate(caller.owner, caller.plan)));
    const body = await readJsonBody(ctx);
    const report = await buildReport(
      services,
      caller,
      validateSolveRequest(c.api as OpenAPIBackend, body.parsed, services.checkCallbackUrl),
      body.parsed,
    );
    ctx.status = 200;
    ctx.body = successEnvelope((ctx.state as RequestState).httpRequestId, report);
  };
}

async function buildReport(
  services: ApiServices,
  caller: Caller,
  validation: { ok: true; request: SolveRequestInput } | { ok: false; issues: ValidationIssue[]; schemaValid: boolean },
  parsed: unknown,
): Promise<ValidationReport> {
  const request = (validation.ok ? validation.request : parsed) as SolveRequestInput;
  const compilable = validation.ok || (validation.schemaValid && validation.issues.every((i) => COMPILABLE_ISSUE_TYPES.has(i.type)));
  const withinPlan = compilable && request.node_num <= caller.plan.maxNodes && request.vehicle_num <= caller.plan.maxVehicles;

  let rejection: ApiError | null = validation.ok ? null : validationError(validation.issues);
  if (!rejection && request.node_num > caller.plan.maxNodes) {
    rejection = new ApiError("plan_limit_exceeded", planLimitMessage("Node", request.node_num, caller.plan.maxNodes));
  } else if (!rejection && request.vehicle_num > caller.plan.maxVehicles) {
    rejection = new ApiError("plan_limit_exceeded", planLimitMessage("Vehicle", request.vehicle_num, caller.plan.maxVehicles));
  }
  rejection ??= await services.admission.quotaRefusal(caller.owner, caller.plan);
  if (!rejection) {
    const depth = await services.queue.queueDepth();
    if (depth >= services.config.busyQueueThreshold) {
      const retry = busyRetryAfter(depth, services.config.busyQueueThreshold);
      rejection = new ApiError("service_busy", `Service busy: ${depth} tasks are waiting in the queue. Retry in ${retry} s`, {
        retryAfterSeconds: retry,
      });
    }
  }

  // Only a well-formed request within the plan is pre-checked: O(customers x vehicles), on the event loop.
  let warnings: string[] = [];
  let proven: Infeasibility[] = [];
  if (withinPlan) {
    try {
      const compiled = compileRequest(request, { withDistances: false });
      warnings = compiled.warnings;
      proven = infeasibilities(compiled.problem, requestDistance(request), request);
    } catch (err) {
      // A body the rules let through but the compiler cannot take: report no infeasibility rather than fail.
      services.log.warn("pre-check could not compile the request", { err });
    }
  }
  const maxSeconds = caller.plan.maxSolveSeconds;
  return {
    would_be_accepted: rejection === null,
    rejection: rejection ? rejectionOf(rejection) : null,
    time_limit_seconds: validation.ok ? Math.min(request.time_limit_seconds ?? maxSeconds, maxSeconds) : null,
    warnings,
    // A proof about a customer that may be left unserved only leaves it out (it is flagged so).
    infeasible: proven.some((i) => !i.may_be_unassigned),
    infeasibilities: proven,
  };
}
