import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/load.js";
import type { Logger } from "../log/logger.js";
import { connectNats } from "../queue/connection.js";
import { AccountStore } from "../store/accounts.js";

/** Room for real trials: 2,000 nodes and 200 vehicles (decisions.md). */
export const DEMO_PLAN = "pro";
export const DEMO_USER = "demo";

/**
 * What `make run` tells about the demo account (each line through `print`). A key is shown only once,
 * so whether `make run` has shown one is remembered in a marker file beside the NATS store
 * (written right after printing): an account whose key was never shown (an earlier start was
 * stopped between creating and printing it) gets a fresh key printed, and otherwise the lines
 * say how to get a new key.
 */
export async function announceDemoAccount(
  config: Readonly<Config>,
  varDir: string,
  natsUrl: string,
  log: Logger,
  print: (line: string) => void,
): Promise<void> {
  const marker = join(varDir, "demo-key-shown");
  const conn = await connectNats(config, "vrp-dev", log);
  try {
    const accounts = new AccountStore(conn.accounts, conn.apiKeys);
    const all = await accounts.listAccounts();
    const demo = all.find((a) => a.user === DEMO_USER);
    let intro: string;
    if (all.length === 0) {
      await accounts.createAccount(DEMO_USER, DEMO_PLAN);
      intro = `Created account '${DEMO_USER}' (plan '${DEMO_PLAN}'). Its API key is shown only this once:`;
    } else if (demo && !existsSync(marker)) {
      intro = `Account '${DEMO_USER}' has no key that make run has shown; a new key, shown only this once:`;
    } else {
      if (demo) print(`Demo account '${DEMO_USER}': lost its key? NATS_URL=${natsUrl} npx vrpctl key create ${DEMO_USER} prints a new one`);
      return;
    }
    const key = (await accounts.createKey(DEMO_USER)).key;
    for (const line of [intro, `  X-User-Name: ${DEMO_USER}`, `  X-Api-Key: ${key}`]) print(line);
    // Only once it is printed: a start stopped before this line gets a key printed next time.
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  } finally {
    await conn.close();
  }
}
