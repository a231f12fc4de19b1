// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import { expect } from "chai";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { buildPlayground } from "../../scripts/build-playground.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { artifactsDir, launchChromium, openPlaygroundLoggedIn } from "../helpers/browser.js";
import { startStack, type Stack } from "../helpers/stack.js";

const run = promisify(execFile);
type Body = Record<string, unknown>;

/**
 * Depot 0 at the origin; 1 (food) and 2 (bleach) east, the shipment 3 -> 4 north, 5 and 6 in
 * between, where 5 (food) and 6 form a same-vehicle group.
 */
function visitRulesRequest(vehicles: number): Body {
  const positions = [
    [0, 0],
    [10, 0],
    [20, 0],
    [0, 10],
    [0, 20],
    [10, 10],
    [5, 5],
  ];
  return {
    node_num: 7,
    vehicle_num: vehicles,
    node_positions: positions,
    distance_matrix: [],
    start_nodes: Array(vehicles).fill(0),
    end_nodes: Array(vehicles).fill(0),
    node_demands: [0, 1, 1, 0, 0, 1, 1],
    vehicles_capacity: Array(vehicles).fill(10),
    node_time_windows: positions.map(() => [0, 600]),
    node_service_time: [0, 5, 5, 5, 5, 5, 5],
    vehicle_speeds: Array(vehicles).fill(1),
    shipments: [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 40 }],
    node_load_types: [null, "food", "bleach", null, null, "food", null],
    incompatible_load_types: [["food", "bleach"]],
    same_vehicle_groups: [[5, 6]],
    time_limit_seconds: 2,
  };
}

/**
 * The playground with the visit rules, in Debian's headless Chromium against a real stack: the
 * route list gives each shipment's ride against its limit, each route's goods and its groups, and
 * the stop's tooltip says the same; a ride over its limit and goods of an incompatible pair on
 * board together are marked.
 */
describe("route playground: ride times, goods and same-vehicle groups in a real browser", function () {
  this.timeout(180_000);
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const shots = artifactsDir("playground-visit-rules");

  before(async () => {
    await buildPlayground();
    stack = await startStack({ workers: 1 });
    const vrpctl = (...args: string[]) =>
      run(process.execPath, ["bin/vrpctl.mjs", ...args], { cwd: REPO_ROOT, env: { ...process.env, NATS_URL: stack.nats.url } });
    await vrpctl("account", "create", "fleet", "--plan", "pro");
    const key = (await vrpctl("key", "create", "fleet")).stdout.trimEnd().split("\n").pop()!;
    browser = await launchChromium();
    page = await openPlaygroundLoggedIn(browser, stack.baseUrl, { "X-User-Name": "fleet", "X-Api-Key": key }, pageErrors);
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  const solve = async (body: Body) => {
    await page.fill("#request-json", JSON.stringify(body));
    const previous = await page.getAttribute("#live-facts", "data-request-id");
    await page.click("#submit-button");
    await page.waitForFunction((old) => {
      const id = document.getElementById("live-facts")!.dataset.requestId;
      return (id !== undefined && id !== old) || document.getElementById("submit-error")!.textContent !== "";
    }, previous);
    expect(await page.textContent("#submit-error")).to.equal("");
    await page.waitForSelector("#live-log li:has-text('solved:'), #live-log li:has-text('failed:')", { timeout: 90_000 });
  };
  const ruleCells = () => page.locator("#routes-table tbody tr td:last-child").allTextContents();
  const tooltipOf = async (node: number) => {
    await page.fill("#inspect-node", String(node));
    return (await page.textContent("#tooltip")) ?? "";
  };

  it("shows the ride against its limit, the goods and the group of each route, and marks nothing on a plan that keeps them", async () => {
    await solve(visitRulesRequest(2));
    expect(await page.locator("#routes-table thead th").last().textContent()).to.equal("Visit rules");
    const cells = (await ruleCells()).join(" | ");
    const ride = /ride 3→4 (\d+\.\d) of 40\.0 min/.exec(cells);
    expect(ride, cells).to.not.equal(null);
    // The direct drive from 3 to 4 is 10 minutes: no ride is shorter.
    expect(Number(ride![1])).to.be.within(10, 40);
    expect(cells).to.include("group 0: 5, 6").and.to.include("goods ");
    expect(cells).to.not.include("split over");
    expect(await page.locator("#routes-table .rule-breach").count()).to.equal(0);
    expect(await page.textContent("#routes-table tfoot td:last-child")).to.equal("1 of 1 rides within limit; 1 of 1 groups together");

    const pickup = await tooltipOf(3);
    expect(pickup).to.include(`ride of shipment 0 (3→4): ${ride![1]} of 40.0 min`);
    expect(await tooltipOf(5)).to.match(/goods food\n[^]*same-vehicle group 0: 5, 6, together on \S+/);
    expect(await tooltipOf(2))
      .to.include("goods bleach")
      .and.not.include("conflict");
    await page.screenshot({ path: join(shots, "01-rules-kept.png"), fullPage: true });
  });

  it("marks a ride over its limit and incompatible goods on board together", async () => {
    // The page shows its own request; the service is sent a looser one (no pair, a long limit), so
    // the plan it returns breaks the page's rules, as a plan from elsewhere might.
    await page.route(
      (url) => url.pathname === "/api/v1/solve",
      async (route) => {
        const sent = JSON.parse(route.request().postData() ?? "{}") as Body;
        delete sent.incompatible_load_types;
        delete sent.node_load_types;
        sent.shipments = [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 600 }];
        await route.continue({ postData: JSON.stringify(sent) });
      },
    );
    try {
      const strict = { ...visitRulesRequest(1), shipments: [{ pickup: 3, delivery: 4, amount: 2, max_ride_minutes: 5 }] };
      await solve(strict);
    } finally {
      await page.unroute((url) => url.pathname === "/api/v1/solve");
    }
    const breaches = await page.locator("#routes-table .rule-breach").allTextContents();
    expect(
      breaches.some((t) => /^ride 3→4 \d+\.\d of 5\.0 min \(over the limit\)$/.test(t)),
      breaches.join(" | "),
    ).to.equal(true);
    expect(breaches.filter((t) => t.startsWith("conflict: ")).length, breaches.join(" | ")).to.be.greaterThan(0);
    expect(await page.textContent("#routes-table tfoot td:last-child")).to.match(/^0 of 1 rides within limit; \d+ goods conflict\(s\)/);
    const bleach = await tooltipOf(2);
    expect(bleach, bleach).to.match(/conflict: on board with food of node [15] \(Vehicle 0\)/);
    expect(await tooltipOf(4)).to.match(/ride of shipment 0 \(3→4\): \d+\.\d of 5\.0 min, over the limit/);
    // A breach is marked in colour, not only said in words.
    const color = await page
      .locator("#routes-table .rule-breach")
      .first()
      .evaluate((el) => getComputedStyle(el).color);
    expect(color).to.equal("rgb(179, 38, 30)");
    await page.screenshot({ path: join(shots, "02-rules-broken.png"), fullPage: true });
    expect(pageErrors).to.deep.equal([]);
  });
});
