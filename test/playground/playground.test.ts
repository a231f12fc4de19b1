// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import { expect } from "chai";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { buildPlayground } from "../../scripts/build-playground.js";
import { artifactsDir, launchChromium } from "../helpers/browser.js";
import { apiClient, isFinished, pollUntil } from "../helpers/client.js";
import { startStack, type Stack } from "../helpers/stack.js";
import { canvasColorCounts, measureMap } from "./page-probes.js";

const run = promisify(execFile);
const shots = artifactsDir("playground");
const MARKETPLACE_SECRET = "playground-proxy-secret";

interface Solved {
  routes: Record<string, number[]>;
  distances: number[];
  loads: Record<string, number[]>;
  time_windows: Record<string, [string, string][]>;
  total_cost: number;
}

/**
 * The route playground end to end: real nats-server, API and worker, Debian's headless Chromium.
 * The steps build on each other (one logged-in page), like a user's session.
 */
describe("route playground in a real browser", function () {
  this.timeout(180_000);
  let stack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let headers: Record<string, string>;
  let timeWindowTaskId = "";
  const outsideRequests: string[] = [];
  const pageErrors: string[] = [];
  const failedAssets: string[] = [];
  /** Clicks Solve and waits until the page shows the final state of that new task. */
  const submitAndWaitForEnd = async (timeout: number) => {
    const previous = await page.getAttribute("#live-facts", "data-request-id");
    await page.click("#submit-button");
    await page.waitForFunction((old) => {
      const facts = document.getElementById("live-facts")!;
      return facts.dataset.requestId !== undefined && facts.dataset.requestId !== old;
    }, previous);
    const id = (await page.getAttribute("#live-facts", "data-request-id"))!;
    await page.waitForSelector("#live-log li:has-text('solved:'), #live-log li:has-text('failed:')", { timeout });
    return id;
  };
  const shot = async (name: string) => {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  };

  before(async () => {
    await buildPlayground();
    stack = await startStack({ workers: 1, env: { MARKETPLACE_PROXY_SECRET: MARKETPLACE_SECRET } });
    // The account center: an account and a key made by vrpctl, the key alone on its last line.
    const vrpctl = (...args: string[]) =>
      run(process.execPath, ["bin/vrpctl.mjs", ...args], { cwd: REPO_ROOT, env: { ...process.env, NATS_URL: stack.nats.url } });
    await vrpctl("account", "create", "pat", "--plan", "pro");
    const key = (await vrpctl("key", "create", "pat")).stdout.trimEnd().split("\n").pop()!;
    headers = { "X-User-Name": "pat", "X-Api-Key": key };
    browser = await launchChromium();
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 1000 } });
    page = await context.newPage();
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    // The page's own files (not the API answers it shows, some of which are 4xx on purpose).
    page.on("response", (r) => {
      if (r.status() >= 400 && !new URL(r.url()).pathname.startsWith("/api/")) failedAssets.push(`${r.status()} ${r.url()}`);
    });
    page.on("request", (r) => {
      if (!r.url().startsWith(stack.baseUrl) && !r.url().startsWith("blob:") && !r.url().startsWith("data:")) outsideRequests.push(r.url());
    });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it("is served by the API at /playground with a same-origin-only policy, outside the JSON API's rules", async () => {
    const response = await page.goto(`${stack.baseUrl}/playground`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()["content-security-policy"]).to.include("default-src 'self'");
    expect(await page.title()).to.equal("VRP route playground");
    // Its icon is declared and served (no 404 for /favicon.ico in the console on every load).
    const icon = await page.getAttribute("link[rel='icon']", "href");
    expect(icon).to.equal("/playground/favicon.svg");
    const iconAnswer = await fetch(`${stack.baseUrl}${icon}`);
    expect(iconAnswer.status).to.equal(200);
    expect(iconAnswer.headers.get("content-type")).to.equal("image/svg+xml");
    const asset = await fetch(`${stack.baseUrl}/playground/app.js`);
    expect(asset.headers.get("content-type")).to.match(/^text\/javascript/);
    // Anything else under /playground is a 404 in the service's error envelope.
    const missing = await fetch(`${stack.baseUrl}/playground/..%2Fpackage.json`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.include({ success: false });
  });

  it("logs in with a key made by vrpctl, kept in session storage and never in the URL", async () => {
    await page.fill("#user", headers["X-User-Name"]!);
    await page.fill("#key", headers["X-Api-Key"]!);
    await page.click("#login-button");
    await page.waitForSelector("#who:has-text('Logged in as pat')");
    const stored = await page.evaluate(() => sessionStorage.getItem("vrp-playground-credentials"));
    expect(stored).to.include(headers["X-Api-Key"]);
    expect(page.url()).not.to.include(headers["X-Api-Key"]!);
    expect(await page.inputValue("#key")).to.equal("");
    await shot("01-logged-in");
  });

  it(
    "submits the time-window example, follows it, and draws one route and one " + "timeline row per used vehicle matching the API's result",
    async () => {
      await page.selectOption("#example-select", "time-windows.json");
      await page.click("#example-load");
      await page.click("#submit-button");
      await page.waitForSelector("#live-facts[data-request-id]");
      await shot("02-submitted");
      timeWindowTaskId = (await page.getAttribute("#live-facts", "data-request-id"))!;
      await page.waitForSelector("#live-log li:has-text('solved:')", { timeout: 60_000 });
      const log = await page.locator("#live-log li").allTextContents();
      expect(log[0]).to.include(`accepted as ${timeWindowTaskId}, phase queued`);
      // The event stream where the service has it, else polling after its 404.
      const stream = await fetch(`${stack.baseUrl}/api/v1/solve/events/${timeWindowTaskId}`, {
        headers: { ...headers, Accept: "text/event-stream" },
      });
      await stream.body?.cancel();
      expect(await page.getAttribute("#live-facts", "data-transport")).to.equal(stream.status === 200 ? "events" : "polling");
      await shot("03-solved-time-windows");

      const poll = await pollUntil(apiClient(stack.baseUrl, headers), timeWindowTaskId, isFinished);
      const result = poll.result as Solved;
      const labels = Object.keys(result.routes);
      expect(labels.length).to.be.greaterThan(0);
      // Map: one legend entry and visible strokes in each used vehicle's own colour.
      const legend = await page
        .locator("#legend span")
        .evaluateAll((spans) =>
          spans.map((s) => ({ vehicle: (s as HTMLElement).dataset.vehicle!, color: (s as HTMLElement).dataset.color! })),
        );
      expect(legend.map((l) => l.vehicle)).to.deep.equal(labels);
      const counts = await canvasColorCounts(
        page,
        "#map",
        legend.map((l) => l.color),
      );
      for (const l of legend) expect(counts[l.color], `pixels of ${l.vehicle}'s colour`).to.be.greaterThan(20);
      // Timelines: one row per used vehicle with the API's departure, return and load.
      const rows = await page.locator(".tl-row").evaluateAll((els) => els.map((e) => ({ ...(e as HTMLElement).dataset })));
      expect(rows.map((r) => r.vehicle)).to.deep.equal(labels);
      for (const row of rows) {
        const times = result.time_windows[row.vehicle!]!;
        expect(row.depart).to.equal(times[0]![1]);
        expect(row.finish).to.equal(times[times.length - 1]![0]);
        expect(Number(row.load)).to.equal(result.loads[row.vehicle!]!.at(-1));
      }
      // Route list: distances as the API gave them, the total cost in the summary.
      const distances = await page.locator("#routes-table tbody tr td:nth-child(3)").allTextContents();
      expect(distances.map(Number)).to.deep.equal(result.distances.map((d) => Number(d.toFixed(1))));
      expect(await page.textContent("dd[data-fact='Total cost (objective)']")).to.equal(result.total_cost.toFixed(2));
      // Hovering a served node tells its index, demand, window, arrival and waiting.
      const node = result.routes[labels[0]!]![1]!;
      await page.fill("#inspect-node", String(node));
      const tip = await page.textContent("#tooltip");
      expect(tip).to.include(`Node ${node}`).and.include("demand").and.include("window").and.include("arrival").and.include("waiting");
      await shot("04-node-inspected");
    },
  );

  it("offers the result JSON, equal to the poll response, and the routes as CSV", async () => {
    const poll = await pollUntil(apiClient(stack.baseUrl, headers), timeWindowTaskId, isFinished);
    // By keyboard: focus the button and press Enter. (A mouse click right after a full-page
    // screenshot can land mid-relayout, as the viewport is resized back.)
    await page.focus("#download-json");
    const [json] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    expect(JSON.parse(readFileSync((await json.path())!, "utf8"))).to.deep.equal(poll);
    await page.focus("#download-csv");
    const [csv] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    const lines = readFileSync((await csv.path())!, "utf8")
      .trimEnd()
      .split("\n");
    const stops = Object.values((poll.result as Solved).routes).reduce((s, r) => s + r.length, 0);
    expect(lines[0]).to.equal("vehicle,sequence,node,cumulative_load,arrive,leave,route_distance");
    expect(lines.length).to.equal(stops + 1);
  });

  it("follows a longer search live: phase solving, elapsed time against the limit, then the routes", async () => {
    await page.fill("#gen-nodes", "150");
    await page.check("#gen-windows");
    await page.fill("#gen-time", "8");
    await page.click("#gen-button");
    await page.click("#submit-button");
    await page.waitForSelector("#live-facts[data-phase='solving']", { timeout: 30_000 });
    const facts = await page.textContent("#live-facts");
    expect(facts).to.match(/(Since submit|Solving for) \/ limit\d+\.\d s \/ 8 s/);
    await shot("05-live-solving");
    if ((await page.getAttribute("#live-facts", "data-transport")) === "events") {
      // With the event stream: the best cost so far and the best routes, drawn while solving.
      await page.waitForFunction(
        () => {
          const facts = document.getElementById("live-facts")!;
          const drawn = (window as unknown as { vrpPlayground: { routeCount(): number } }).vrpPlayground.routeCount();
          return facts.dataset.phase === "solving" && drawn > 0 && /Best cost so far\d/.test(facts.textContent ?? "");
        },
        null,
        { timeout: 30_000 },
      );
      await shot("05b-live-best-routes");
    }
    await page.waitForSelector("#live-log li:has-text('solved:')", { timeout: 90_000 });
    expect(await page.locator("#live-log li").allTextContents()).to.satisfy((log: string[]) => log.some((l) => /: solving/.test(l)));
    const used = await page.locator("#legend span").count();
    expect(used).to.be.greaterThan(1);
    expect(await page.locator(".tl-row").count()).to.equal(used);
    await page.uncheck("#gen-windows");
    await shot("06-solved-150");
    // The first screen as a user sees it (the README's picture comes from here).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shots, "06-solved-150-first-screen.png") });
  });

  it("shows the service's 422 message next to the field it names", async () => {
    await page.selectOption("#example-select", "time-windows.json");
    await page.click("#example-load");
    const request = JSON.parse(await page.inputValue("#request-json")) as Record<string, unknown>;
    await page.fill("#request-json", JSON.stringify({ ...request, time_limit_seconds: -5 }, null, 2));
    await page.dispatchEvent("#request-json", "change");
    await page.click("#submit-button");
    const error = page.locator("li[data-field='time_limit_seconds'] .field-error");
    await error.waitFor();
    expect(await error.textContent()).to.equal("time_limit_seconds must be a positive integer");
    expect(await page.textContent("#submit-error")).to.include("422: Validation failed");
    // Nothing of the previous (solved) task is left in the progress panel.
    expect(await page.locator("#live-log li").count()).to.equal(0);
    expect(await page.textContent("#live-facts")).to.equal("");
    expect(await page.getAttribute("#live-facts", "data-request-id")).to.equal(null);
    expect(await page.getAttribute("#live-facts", "data-phase")).to.equal(null);
    await page.locator("li[data-field='time_limit_seconds']").scrollIntoViewIfNeeded();
    await shot("07-validation-422");
  });

  it("lays out a request that has only a distance matrix by MDS, says the layout is approximate, and draws its routes", async () => {
    await page.selectOption("#example-select", "small-cvrp.json");
    await page.click("#example-load");
    expect(await page.textContent("#layout-note"))
      .to.include("classical multidimensional scaling")
      .and.include("approximate");
    await submitAndWaitForEnd(60_000);
    const legend = await page.locator("#legend span").evaluateAll((spans) => spans.map((s) => (s as HTMLElement).dataset.color!));
    expect(legend.length).to.be.greaterThan(0);
    const counts = await canvasColorCounts(page, "#map", legend);
    for (const color of legend) expect(counts[color]).to.be.greaterThan(20);
    await shot("08-matrix-only-mds");
  });

  it("lists the planning history and reopens an entry with its routes", async () => {
    await page.click("#history-refresh");
    const entry = page.locator(`.history-entry[data-request-id='${timeWindowTaskId}']`);
    await entry.waitFor();
    expect(await page.locator(".history-entry").count()).to.equal(3);
    // Keyboard only: focus the entry and press Enter.
    await entry.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector(`#history-note:has-text('Reopened ${timeWindowTaskId}')`);
    expect(await page.inputValue("#request-json")).to.include("Morning run with windows");
    const poll = await pollUntil(apiClient(stack.baseUrl, headers), timeWindowTaskId, isFinished);
    const labels = Object.keys((poll.result as Solved).routes);
    await page.waitForFunction((n) => document.querySelectorAll(".tl-row").length === n, labels.length);
    expect(await page.locator("#legend span").evaluateAll((s) => s.map((e) => (e as HTMLElement).dataset.vehicle))).to.deep.equal(labels);
    await shot("09-history-reopened");
  });

  it("keeps the focused history entry when the list is redrawn, and never draws an older refresh over a newer one", async () => {
    // The first refresh answers late and with an empty list; the second, asked for after it,
    // answers at once. Only the second may be drawn, even though the first arrives last.
    let calls = 0;
    await page.route("**/api/v1/history?*", async (route) => {
      calls += 1;
      if (calls !== 1) return route.continue();
      const response = await route.fetch();
      const body = (await response.json()) as { result: { items: unknown[] } };
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.fulfill({ response, json: { ...body, result: { ...body.result, items: [], next_cursor: null } } });
    });
    try {
      const entry = page.locator(`.history-entry[data-request-id='${timeWindowTaskId}']`);
      await entry.focus();
      const refreshes = page
        .waitForResponse((r) => r.url().includes("/api/v1/history?"))
        .then(() => page.waitForResponse((r) => r.url().includes("/api/v1/history?")));
      // Clicked by script, so the keyboard focus stays on the entry as a redraw under the user would find it.
      await page.evaluate(() => {
        document.getElementById("history-refresh")!.click();
        document.getElementById("history-refresh")!.click();
      });
      await refreshes;
      await page.waitForTimeout(300);
      expect(calls).to.equal(2);
      expect(await page.locator(".history-entry").count()).to.equal(3);
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.requestId)).to.equal(timeWindowTaskId);
    } finally {
      await page.unroute("**/api/v1/history?*");
    }
  });

  it("pans and zooms the map from the keyboard, and 0 brings the first view back", async () => {
    const picture = () =>
      page.evaluate(() => {
        const canvas = document.getElementById("map") as HTMLCanvasElement;
        const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
        let hash = 0;
        for (let i = 0; i < data.length; i += 7) hash = (hash * 31 + data[i]!) >>> 0;
        return hash;
      });
    await page.focus("#map");
    const first = await picture();
    await page.keyboard.press("+");
    const zoomed = await picture();
    await page.keyboard.press("ArrowLeft");
    const panned = await picture();
    await page.keyboard.press("0");
    expect(new Set([first, zoomed, panned]).size).to.equal(3);
    expect(await picture()).to.equal(first);
  });

  it("stays responsive with 2,000 nodes (prints the measured render time and hover latency)", async () => {
    await page.fill("#gen-nodes", "2000");
    await page.fill("#gen-time", "2");
    await page.click("#gen-button");
    await submitAndWaitForEnd(150_000);
    expect(await page.locator("#live-log li").allTextContents()).to.satisfy((log: string[]) => log.at(-1)!.includes("solved:"));
    const used = await page.locator("#legend span").count();
    expect(used).to.be.greaterThan(100);
    expect(
      await page.evaluate(() => (window as unknown as { vrpPlayground: { routeCount(): number } }).vrpPlayground.routeCount()),
    ).to.equal(used);
    const m = await measureMap(page, "#map");
    // A measurement, not a timed assertion: the figures go to BENCHMARKS.md.
    console.log(
      `      2,000 nodes, ${used} routes: full map render (zoom/pan/resize) median ` +
        `${m.renderMedianMs.toFixed(1)} ms, p95 ${m.renderP95Ms.toFixed(1)} ms; ` +
        `hover handler median ${m.hoverHandlerMedianMs.toFixed(2)} ms, p95 ` +
        `${m.hoverHandlerP95Ms.toFixed(2)} ms; hover to next frame median ` +
        `${m.hoverFrameMedianMs.toFixed(1)} ms, p95 ${m.hoverFrameP95Ms.toFixed(1)} ms ` +
        `(${m.samples} moves, ${m.hits} on a node)`,
    );
    expect(m.hits).to.be.greaterThan(0);
    await shot("10-2000-nodes");
  });

  it("logs in with the marketplace proxy headers instead, refuses a wrong secret, and solves", async () => {
    await page.click("#logout-button");
    expect(await page.evaluate(() => sessionStorage.length)).to.equal(0);
    await page.check("input[name=mode][value=marketplace]");
    await page.fill("#secret", "not-the-secret");
    await page.fill("#platform-user", "acme-buyer");
    await page.click("#login-button");
    await page.waitForSelector("#login-error:not(:empty)");
    expect(await page.locator("#login-error").textContent()).to.equal("401: invalid proxy secret");
    await page.fill("#secret", MARKETPLACE_SECRET);
    await page.click("#login-button");
    await page.waitForSelector("#who:has-text('Logged in as acme-buyer (marketplace)')");
    await page.selectOption("#example-select", "time-windows.json");
    await page.click("#example-load");
    await submitAndWaitForEnd(60_000);
    expect(await page.locator(".tl-row").count()).to.be.greaterThan(0);
    expect(await page.textContent("#history-note")).to.include("not recorded");
    await shot("11-marketplace");
  });

  it("fetched nothing from outside the service, none of its own files failed (favicon included), and raised no script error", () => {
    expect(outsideRequests).to.deep.equal([]);
    expect(failedAssets).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
  });
});
