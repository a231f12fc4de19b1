// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import { expect } from "chai";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { buildPlayground } from "../../scripts/build-playground.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { launchChromium, openPlaygroundLoggedIn } from "../helpers/browser.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);

/**
 * The playground with balanced workloads, in Debian's headless Chromium against a real stack: the
 * route list gives each route's workload as the API gave it, and the summary the balance term.
 */
describe("route playground: balanced workloads in a real browser", function () {
  this.timeout(180_000);
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let headers: Record<string, string>;
  const pageErrors: string[] = [];

  before(async () => {
    await buildPlayground();
    stack = await startStack({ workers: 1 });
    const vrpctl = (...args: string[]) =>
      run(process.execPath, ["bin/vrpctl.mjs", ...args], { cwd: REPO_ROOT, env: { ...process.env, NATS_URL: stack.nats.url } });
    await vrpctl("account", "create", "fleet", "--plan", "pro");
    const key = (await vrpctl("key", "create", "fleet")).stdout.trimEnd().split("\n").pop()!;
    headers = { "X-User-Name": "fleet", "X-Api-Key": key };
    browser = await launchChromium();
    page = await openPlaygroundLoggedIn(browser, stack.baseUrl, headers, pageErrors);
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it("shows each route's workload and the balance term, and neither for a result without balance", async () => {
    const request = JSON.parse(readFileSync(join(REPO_ROOT, "examples/small-cvrp.json"), "utf8")) as Record<string, unknown>;
    const solve = async (body: Record<string, unknown>) => {
      await page.fill("#request-json", JSON.stringify(body));
      const previous = await page.getAttribute("#live-facts", "data-request-id");
      await page.click("#submit-button");
      await page.waitForFunction((old) => {
        const id = document.getElementById("live-facts")!.dataset.requestId;
        return id !== undefined && id !== old;
      }, previous);
      const id = (await page.getAttribute("#live-facts", "data-request-id"))!;
      await page.waitForSelector("#live-log li:has-text('solved:'), #live-log li:has-text('failed:')", { timeout: 90_000 });
      return (await pollUntil(apiClient(stack.baseUrl, headers), id, isFinished)).result as {
        balance_cost?: number;
        route_details: Record<string, { balance_measure?: number }>;
      };
    };
    const balanced = await solve({ ...request, vehicles_capacity: [20, 20], balance: { measure: "stops", cost_per_unit: 10 } });
    expect(balanced.balance_cost).to.equal(20);
    const head = await page.locator("#routes-table thead th").allTextContents();
    expect(head.at(-1)).to.equal("Workload");
    const cells = await page.locator("#routes-table tbody tr td:last-child").allTextContents();
    expect(cells.map(Number)).to.deep.equal(Object.values(balanced.route_details).map((d) => d.balance_measure));
    expect(await page.textContent("#routes-table tfoot td:last-child")).to.equal("largest 2.0");
    expect(await page.textContent("dd[data-fact='Balance term']")).to.equal("20.00");

    const plain = await solve(request);
    expect(plain.balance_cost).to.equal(undefined);
    expect(await page.locator("#routes-table thead th").allTextContents()).to.not.include("Workload");
    expect(await page.locator("dd[data-fact='Balance term']").count()).to.equal(0);
    expect(pageErrors).to.deep.equal([]);
  });
});
