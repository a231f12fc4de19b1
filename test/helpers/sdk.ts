import { VrpClient, type SolveRequest, type WaitOptions } from "../../clients/typescript/src/index.js";
import { validateEveryResponse } from "./client.js";

/**
 * The repository's TypeScript SDK (clients/typescript) as a partner uses it, with every response
 * checked against the document like the typed test client's.
 */
export function sdkClient(baseUrl: string, account: { user: string; key: string }): VrpClient {
  return new VrpClient({ baseUrl, credentials: { user: account.user, apiKey: account.key } }).use(validateEveryResponse);
}

/** Tests poll every 150 ms; the spec's 2 s / 3 s / 5 s schedule itself is tested in the SDK's own tests. */
export const TEST_WAIT: WaitOptions = { scheduleMs: [150], timeoutMs: 90_000 };

/** Test fixtures build plain objects; this is where they meet the document's request type. */
export const asSolveRequest = (request: object): SolveRequest => request as SolveRequest;
