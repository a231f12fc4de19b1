import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { REPO_ROOT } from "../../src/infra/service-process.js";

/** Debian's Chromium (`make test` installs the package); playwright-core never downloads one. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless Chromium with the flags that keep it off the network: this machine refuses outside
 * connections, and the page under test must not need any. Playwright gives every launch a fresh
 * temporary profile (its own --user-data-dir, removed on close).
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Screenshots of each step go here (git-ignored), to be looked at. */
export function artifactsDir(name: string): string {
  const dir = join(REPO_ROOT, "test-artifacts", name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A 1440x1000 page of the playground at `baseUrl`, logged in with `headers`' user and key;
 * uncaught page errors are pushed to `pageErrors` for the test to assert on.
 */
export async function openPlaygroundLoggedIn(
  browser: Browser,
  baseUrl: string,
  headers: Record<string, string>,
  pageErrors: string[],
): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(`${baseUrl}/playground`);
  await page.fill("#user", headers["X-User-Name"]!);
  await page.fill("#key", headers["X-Api-Key"]!);
  await page.click("#login-button");
  await page.waitForSelector(`#who:has-text('Logged in as ${headers["X-User-Name"]}')`);
  return page;
}
