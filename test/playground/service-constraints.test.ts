// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import { expect } from "chai";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { UNASSIGNED_COLOR } from "../../playground/src/map-view.js";
import { TIMELINE_COLORS } from "../../playground/src/timeline-view.js";
import { buildPlayground } from "../../scripts/build-playground.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { artifactsDir, launchChromium, openPlaygroundLoggedIn } from "../helpers/browser.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { canvasColorCounts } from "./page-probes.js";

const run = promisify(execFile);
const shots = artifactsDir("playground-constraints");

/**
 * The playground with optional stops, skills and shifts, in Debian's headless Chromium
 * against a real stack: unassigned customers drawn apart on the map and listed with their reason,
 * shifts on the timeline, and the random generator's new kinds.
 */
describe("route playground: optional stops, skills and shifts in a real browser", function () {
  this.timeout(180_000);
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let headers: Record<string, string>;
  const pageErrors: string[] = [];

  const solveAndWait = async () => {
    const previous = await page.getAttribute("#live-facts", "data-request-id");
    await page.click("#submit-button");
    await page.waitForFunction((old) => {
      const id = document.getElementById("live-facts")!.dataset.requestId;
      return id !== undefined && id !== old;
    }, previous);
    const id = (await page.getAttribute("#live-facts", "data-request-id"))!;
    await page.waitForSelector("#live-log li:has-text('solved:'), #live-log li:has-text('failed:')", { timeout: 90_000 });
    return id;
  };

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

  it("draws the unassigned customers apart on the map and lists each with the API's reason", async () => {
    await page.selectOption("#example-select", "service-constraints.json");
    await page.click("#example-load");
    const id = await solveAndWait();
    await page.screenshot({ path: join(shots, "01-unassigned.png"), fullPage: true });
    const poll = await pollUntil(apiClient(stack.baseUrl, headers), id, isFinished);
    const unassigned = (poll.result as { unassigned: { node: number; reason: string }[] }).unassigned;
    expect(unassigned.map((u) => u.node)).to.include(11);
    expect(await page.isVisible("#unassigned")).to.equal(true);
    const listed = await page
      .locator("#unassigned-list li")
      .evaluateAll((items) =>
        items.map((i) => ({ node: Number((i as HTMLElement).dataset.node), reason: (i as HTMLElement).dataset.reason! })),
      );
    expect(listed).to.deep.equal(unassigned.map((u) => ({ node: u.node, reason: u.reason })));
    expect(await page.textContent("#unassigned-list li[data-node='11']"))
      .to.include("no_vehicle_with_skills")
      .and.include("crane");
    expect(await page.textContent("#live-log")).to.match(/solved: .*\d+ unassigned/);
    // On the map, in their own colour; the tooltip says why.
    const ringed = (await canvasColorCounts(page, "#map", [UNASSIGNED_COLOR]))[UNASSIGNED_COLOR]!;
    expect(ringed, "pixels of the unassigned marker").to.be.greaterThan(20 * unassigned.length);
    await page.click("#unassigned-list li[data-node='11'] button");
    expect(await page.textContent("#tooltip"))
      .to.include("Node 11")
      .and.include("unassigned: no_vehicle_with_skills");
    await page.locator("#result").screenshot({ path: join(shots, "01b-routes-section.png") });
  });

  it("shows each vehicle's shift on its timeline row", async () => {
    // examples/service-constraints.json: base 08:00, vehicle 0's shift [0, 240], vehicle 1's [60, 480].
    const rows = await page
      .locator(".tl-row")
      .evaluateAll((els) =>
        els.map((e) => ({ vehicle: (e as HTMLElement).dataset.vehicle!, shift: (e as HTMLElement).dataset.shift ?? null })),
      );
    const shifts = Object.fromEntries(rows.map((r) => [r.vehicle, r.shift]));
    if ("Vehicle 0" in shifts) expect(shifts["Vehicle 0"]).to.equal("08:00:00–12:00:00");
    if ("Vehicle 1" in shifts) expect(shifts["Vehicle 1"]).to.equal("09:00:00–16:00:00");
    if ("Vehicle 2" in shifts) expect(shifts["Vehicle 2"]).to.equal(null);
    const shifted = rows.find((r) => r.shift !== null);
    expect(shifted, "some used vehicle has a shift").to.not.equal(undefined);
    const teal = await canvasColorCounts(page, `.tl-row[data-vehicle='${shifted!.vehicle}'] canvas`, [TIMELINE_COLORS.shift]);
    expect(teal[TIMELINE_COLORS.shift], "pixels of the shift bracket").to.be.greaterThan(20);
    expect(await page.getAttribute(`.tl-row[data-vehicle='${shifted!.vehicle}']`, "aria-label")).to.include("shift ");
  });

  it("clears the unassigned list and markers for a result without them", async () => {
    await page.selectOption("#example-select", "small-cvrp.json");
    await page.click("#example-load");
    await solveAndWait();
    expect(await page.isVisible("#unassigned")).to.equal(false);
    expect((await canvasColorCounts(page, "#map", [UNASSIGNED_COLOR]))[UNASSIGNED_COLOR]).to.equal(0);
  });

  it("generates random problems with optional stops, skills and shifts that the service solves", async () => {
    await page.fill("#gen-nodes", "40");
    await page.check("#gen-windows");
    await page.check("#gen-optional");
    await page.check("#gen-skills");
    await page.check("#gen-shifts");
    await page.fill("#gen-time", "2");
    await page.click("#gen-button");
    const request = JSON.parse(await page.inputValue("#request-json")) as Record<string, unknown[]>;
    for (const field of ["node_skip_penalties", "node_skills", "vehicle_skills", "vehicle_time_windows"])
      expect(request[field], field).to.be.an("array");
    expect(request.node_skip_penalties!.some((p) => typeof p === "number")).to.equal(true);
    await solveAndWait();
    expect(await page.textContent("#live-log")).to.include("solved:");
    await page.screenshot({ path: join(shots, "02-generated.png"), fullPage: true });
    expect(pageErrors).to.deep.equal([]);
  });
});
