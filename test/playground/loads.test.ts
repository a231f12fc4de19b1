// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import { expect } from "chai";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { buildPlayground } from "../../scripts/build-playground.js";
import { ON_BOARD_COLOR } from "../../playground/src/onboard-view.js";
import { artifactsDir, launchChromium, openPlaygroundLoggedIn } from "../helpers/browser.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { canvasColorCounts } from "./page-probes.js";

const shots = artifactsDir("playground-loads");

interface Solved {
  routes: Record<string, number[]>;
  loads_on_board?: Record<string, number[]>;
  extra_loads_on_board?: Record<string, number[][]>;
}

/**
 * Pickups and deliveries in the playground (real stack, Debian's headless Chromium): the pickup-and-delivery
 * example and the generator's pickups, shipments and volume; shipment pairs linked on the map,
 * the load on board drawn on each vehicle's timeline row and matching the API's loads_on_board.
 */
describe("route playground: pickups, shipments and load on board", function () {
  this.timeout(180_000);
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let headers: Record<string, string>;
  const pageErrors: string[] = [];

  const solveOnPage = async (): Promise<string> => {
    const previous = await page.getAttribute("#live-facts", "data-request-id");
    await page.click("#submit-button");
    await page.waitForFunction((old) => {
      const id = document.getElementById("live-facts")!.dataset.requestId;
      return id !== undefined && id !== old;
    }, previous);
    const id = (await page.getAttribute("#live-facts", "data-request-id"))!;
    await page.waitForSelector("#live-log li:has-text('solved:'), #live-log li:has-text('failed:')", { timeout: 60_000 });
    expect(await page.locator("#live-log li").allTextContents()).to.satisfy((log: string[]) => log.some((l) => l.includes("solved:")));
    return id;
  };

  const expectOnBoardShown = async (id: string) => {
    const poll = await pollUntil(apiClient(stack.baseUrl, headers), id, isFinished);
    const result = poll.result as Solved;
    expect(result.loads_on_board, "the API's loads_on_board").to.be.an("object");
    const rows = await page.locator(".tl-row").evaluateAll((els) =>
      els.map((e) => ({
        vehicle: (e as HTMLElement).dataset.vehicle!,
        onBoard: (e as HTMLElement).dataset.onBoard ?? "",
        label: e.getAttribute("aria-label") ?? "",
      })),
    );
    expect(rows.map((r) => r.vehicle)).to.deep.equal(Object.keys(result.routes));
    for (const row of rows) {
      expect(row.onBoard, `${row.vehicle}'s on-board loads`).to.equal(result.loads_on_board![row.vehicle]!.join(","));
      expect(row.label).to.include("on board after each stop");
    }
    // The step line is drawn in each row's canvas.
    const drawn = await canvasColorCounts(page, ".tl-row .tl-canvas", [ON_BOARD_COLOR]);
    expect(drawn[ON_BOARD_COLOR], "on-board line pixels in the first row").to.be.greaterThan(10);
    return result;
  };

  before(async () => {
    await buildPlayground();
    stack = await startStack({ workers: 1 });
    ({ headers } = await stack.account("lou", "pro"));
    browser = await launchChromium();
    page = await openPlaygroundLoggedIn(browser, stack.baseUrl, headers, pageErrors);
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it("solves the pickup-and-delivery example: both shipments linked on the map, load on board on every timeline row", async () => {
    await page.selectOption("#example-select", "pickups-and-deliveries.json");
    await page.click("#example-load");
    const links = () =>
      page.evaluate(() => (window as unknown as { vrpPlayground: { shipmentLinks(): number } }).vrpPlayground.shipmentLinks());
    expect(await links(), "pairs linked before solving").to.equal(2);
    const id = await solveOnPage();
    expect(await links(), "pairs linked in the solution").to.equal(2);
    const result = await expectOnBoardShown(id);
    expect(result.extra_loads_on_board).to.be.an("object");
    // The pair is drawn in the colour of the vehicle serving it: that colour's pixels include the dashed link.
    const legend = await page.locator("#legend span").evaluateAll((spans) => spans.map((s) => (s as HTMLElement).dataset.color!));
    const counts = await canvasColorCounts(page, "#map", legend);
    for (const color of legend) expect(counts[color]).to.be.greaterThan(20);
    // The node inspector tells a shipment stop's role and the load on board after it.
    await page.fill("#inspect-node", "8");
    expect(await page.textContent("#tooltip"))
      .to.include("shipment 0: picks up 5 for node 9")
      .and.include("on board after it");
    await page.screenshot({ path: join(shots, "01-pickups-and-deliveries.png"), fullPage: true });
  });

  it("generates a random problem with pickups, shipments and a volume dimension, which the service solves", async () => {
    await page.fill("#gen-nodes", "40");
    await page.uncheck("#gen-windows");
    for (const box of ["#gen-pickups", "#gen-shipments", "#gen-volume"]) await page.check(box);
    await page.fill("#gen-time", "3");
    await page.click("#gen-button");
    const request = JSON.parse(await page.inputValue("#request-json")) as Record<string, unknown>;
    expect(request).to.include.keys("node_pickups", "shipments", "node_extra_demands", "vehicles_extra_capacity");
    const id = await solveOnPage();
    await expectOnBoardShown(id);
    expect(
      await page.evaluate(() => (window as unknown as { vrpPlayground: { shipmentLinks(): number } }).vrpPlayground.shipmentLinks()),
    ).to.equal((request.shipments as unknown[]).length);
    await page.screenshot({ path: join(shots, "02-generated.png"), fullPage: true });
    expect(pageErrors).to.deep.equal([]);
  });
});
