import { createHash, timingSafeEqual } from "node:crypto";
import type { Config } from "../config/load.js";
import type { Plan } from "../config/plans.js";
import { ApiError } from "../errors/api-error.js";
import { MESSAGES, planAccessMessage } from "../errors/codes.js";
import type { Channel } from "../queue/task-store.js";
import type { Account, AccountStore } from "../store/accounts.js";

export interface Caller {
  /** Owner of the tasks this caller creates: the account name, or `marketplace:<platform user>`. */
  owner: string;
  channel: Channel;
  plan: Plan;
  account: Account | null;
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === "" ? undefined : first;
}

/** Compares secrets in constant time by comparing their fixed-length digests. */
function secretsEqual(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Who is calling: a marketplace proxy (its secret header present) or a direct account (user name
 * and key). Throws the spec's 401 and 403 errors; the order is authentication, then API access.
 */
export async function authenticateCaller(headers: Headers, config: Readonly<Config>, accounts: AccountStore): Promise<Caller> {
  const proxySecret = header(headers, config.marketplace.secretHeader);
  if (proxySecret !== undefined) {
    if (config.marketplace.secret === null || !secretsEqual(proxySecret, config.marketplace.secret)) {
      throw new ApiError("invalid_proxy_secret", MESSAGES.invalidProxySecret);
    }
    const platformUser = header(headers, config.marketplace.userHeader);
    if (platformUser === undefined) throw new ApiError("missing_credentials", MESSAGES.missingCredentials);
    const plan = config.plans.plans.get(config.plans.marketplacePlan)!;
    return { owner: `marketplace:${platformUser}`, channel: "marketplace", plan, account: null };
  }

  const user = header(headers, "x-user-name");
  const key = header(headers, "x-api-key");
  if (user === undefined || key === undefined) throw new ApiError("missing_credentials", MESSAGES.missingCredentials);
  const account = await accounts.authenticate(user, key);
  if (!account) throw new ApiError("invalid_credentials", MESSAGES.invalidCredentials);
  const plan = config.plans.plans.get(account.plan) ?? config.plans.plans.get(config.plans.defaultPlan)!;
  if (!plan.apiAccess) throw new ApiError("api_access_not_in_plan", planAccessMessage(plan.name));
  return { owner: account.user, channel: "direct", plan, account };
}
