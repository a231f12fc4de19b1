import type { Context as KoaContext } from "koa";
import type { Context as OpenApiContext } from "openapi-backend";
import type { components } from "../../../generated/api.js";
import { allStrategies } from "../../../strategies/registry.js";
import { authenticateCaller } from "../auth.js";
import type { ApiServices, RequestState } from "../context.js";
import { successEnvelope } from "../envelope.js";

type StrategyInfo = components["schemas"]["StrategyInfo"];

/** The strategies this process loaded, as a solve request may pin them. */
export function strategyList(): StrategyInfo[] {
  return allStrategies().map((s) => ({ name: s.name, kind: s.kind, supports: [...s.features] }));
}

/** GET /api/v1/strategies: authenticated like every operation; uses no rate or quota. */
export function listStrategiesHandler(services: ApiServices) {
  return async (_c: OpenApiContext, ctx: KoaContext): Promise<void> => {
    await authenticateCaller(ctx.headers, services.config, services.accounts);
    ctx.status = 200;
    ctx.body = successEnvelope((ctx.state as RequestState).httpRequestId, strategyList());
  };
}
