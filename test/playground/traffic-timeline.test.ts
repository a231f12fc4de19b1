// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import { expect } from "chai";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { buildPlayground } from "../../scripts/build-playground.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { launchChromium, openPlaygroundLoggedIn } from "../helpers/browser.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);

/** The playground's timeline with traffic slots (time_dependent_durations), in Debian's headless Chromium against a real stack. */
describe("route playground: traffic slots on the timeline in a real browser", function () {
  this.timeout(180_000);
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    await buildPlayground();
    stack = await startStack({ workers: 1 });
    const vrpctl = (...args: string[]) =>
      run(process.execPath, ["bin/vrpctl.mjs", ...args], { cwd: REPO_ROOT, env: { ...process.env, NATS_URL: stack.nats.url } });
    await vrpctl("account", "create", "traffic", "--plan", "pro");
    const key = (await vrpctl("key", "create", "traffic")).stdout.trimEnd().split("\n").pop()!;
    browser = await launchChromium();
    page = await openPlaygroundLoggedIn(browser, stack.baseUrl, { "X-User-Name": "traffic", "X-Api-Key": key }, pageErrors);
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it("shows the rush hours of examples/rush-hour.json above the timelines, each with its pace and hours", async () => {
    await page.selectOption("#example-select", "rush-hour.json");
    await page.click("#example-load");
    await page.click("#submit-button");
    await page.waitForSelector("#live-log li:has-text('solved:')", { timeout: 90_000 });
    await page.waitForSelector(".tl-traffic");
    const bands = await page
      .locator(".tl-traffic .tl-traffic-slot")
      .evaluateAll((els) => els.map((e) => ({ factor: (e as HTMLElement).dataset.factor, title: (e as HTMLElement).title })));
    // The day runs from 06:00; the axis reaches past 16:00 (windows until 17:40), so both rush hours show.
    expect(bands).to.deep.equal([
      { factor: "1.6", title: "driving x1.6 from 07:00 to 09:00" },
      { factor: "1.6", title: "driving x1.6 from 16:00 to 18:00" },
    ]);
    expect(await page.getAttribute(".tl-traffic", "aria-label")).to.equal(
      "Traffic: driving x1.6 from 07:00 to 09:00; driving x1.6 from 16:00 to 18:00",
    );
    expect(pageErrors).to.deep.equal([]);
  });
});
