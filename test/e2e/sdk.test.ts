import { expect } from "chai";
import { fileURLToPath } from "node:url";
import { isApiError, VrpClient, type VrpApiError } from "../../clients/typescript/src/index.js";
import { validateEveryResponse } from "../helpers/client.js";
import { cvrpRequest } from "../helpers/requests.js";
import { asSolveRequest, sdkClient, TEST_WAIT } from "../helpers/sdk.js";
import { startStack, type Stack } from "../helpers/stack.js";

const PLANS_FILE = fileURLToPath(new URL("../fixtures/plans.json", import.meta.url));
const PROXY_SECRET = "proxy-s3cret";
const small = () => asSolveRequest({ ...cvrpRequest({ customers: 3, vehicles: 1, capacity: 100 }), time_limit_seconds: 1 });

async function apiErrorOf(promise: Promise<unknown>): Promise<VrpApiError> {
  const outcome = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isApiError(outcome)) throw new Error(`expected an ApiError, got ${String(outcome)}`);
  return outcome;
}

/** The SDK against the real service in a partner's situations: marketplace access, quota, validation, abort. */
describe("the TypeScript SDK against a started service", function () {
  this.timeout(90_000);
  let stack: Stack;
  before(async () => {
    stack = await startStack({ workers: 1, env: { PLANS_FILE, MARKETPLACE_PROXY_SECRET: PROXY_SECRET } });
  });
  after(async () => stack?.stop());

  const marketplace = (proxySecret: string) =>
    new VrpClient({ baseUrl: stack.baseUrl, credentials: { marketplace: { proxySecret, user: "platform-user-9" } } }).use(
      validateEveryResponse,
    );

  it("solves through marketplace credentials, and a wrong proxy secret is a typed 401", async () => {
    const done = await marketplace(PROXY_SECRET).solve(small(), TEST_WAIT);
    if (!done.success) throw new Error(done.error);
    expect(done.result.status).to.equal("solved");
    const refused = await apiErrorOf(marketplace("wrong").submit(small()));
    if (refused.status !== 401) throw new Error(`expected 401, got ${refused.status}`);
    expect(refused.body.code).to.equal("invalid_proxy_secret");
  });

  it("turns the monthly quota's 429 into a typed error carrying Retry-After", async () => {
    const client = sdkClient(stack.baseUrl, await stack.account("thrifty", "quota"));
    for (let i = 0; i < 3; i++) await client.submit(small());
    const over = await apiErrorOf(client.submit(small()));
    if (over.status !== 429) throw new Error(`expected 429, got ${over.status}`);
    expect(over.body.code).to.equal("monthly_quota_exceeded");
    expect(over.retryAfterSeconds).to.equal(over.body.retry_after_seconds).and.to.be.greaterThan(0);
  });

  it("gives a 422's problems in `detail`, typed", async () => {
    const client = sdkClient(stack.baseUrl, await stack.account("careless", "market"));
    const invalid = await apiErrorOf(client.submit(asSolveRequest({ ...small(), time_limit_seconds: 0 })));
    if (invalid.status !== 422) throw new Error(`expected 422, got ${invalid.status}`);
    expect(invalid.body.detail.map((issue) => issue.loc.join("."))).to.include("body.time_limit_seconds");
  });

  it("stops waiting as soon as the AbortSignal aborts", async () => {
    const client = sdkClient(stack.baseUrl, await stack.account("impatient", "market"));
    const { request_id } = await client.submit(
      asSolveRequest({ ...cvrpRequest({ customers: 60, vehicles: 10, capacity: 50 }), time_limit_seconds: 8 }),
    );
    // 60 customers keep the solver busy for its whole 8 s: still processing when the abort comes.
    expect((await client.poll(request_id)).result?.status).to.equal("processing");
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("caller gave up")), 300);
    const outcome = await client.waitForResult(request_id, { signal: controller.signal }).then(
      () => "finished",
      (e: Error) => e.message,
    );
    expect(outcome).to.equal("caller gave up");
    // The wait ended on the abort, not on a result: the task is still solving (no wall-clock bound,
    // which a loaded machine breaks; the task's 8 s leave a wide margin over the 300 ms abort).
    expect((await client.poll(request_id)).result?.status).to.equal("processing");
    const done = await client.waitForResult(request_id, TEST_WAIT);
    expect(done.success, done.error ?? "").to.equal(true);
  });
});
