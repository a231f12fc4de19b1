// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import { expect } from "chai";
import { load } from "js-yaml";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { SPEC_PATH } from "../../src/api/spec-backend.js";
import { buildReference } from "../../scripts/build-reference.js";
import { artifactsDir, launchChromium } from "../helpers/browser.js";
import { startStack, type Stack } from "../helpers/stack.js";

const shots = artifactsDir("reference");
const DOCUMENT = JSON.parse(readFileSync(SPEC_PATH, "utf8")) as { paths: Record<string, Record<string, { operationId?: string }>> };
const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);
/** Every operation of the document as "METHOD path". */
const OPERATIONS = Object.entries(DOCUMENT.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((m) => METHODS.has(m))
    .map((m) => `${m.toUpperCase()} ${path}`),
);

/**
 * The contract as the service serves it, and the interactive reference at /docs in Debian's
 * headless Chromium against a real nats-server, API and worker.
 */
describe("the served contract and the API reference page", function () {
  this.timeout(180_000);
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const outsideRequests: string[] = [];
  const failedResponses: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    await buildReference();
    stack = await startStack({ workers: 1 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") pageErrors.push(m.text());
    });
    page.on("request", (r) => {
      if (!r.url().startsWith(stack.baseUrl) && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) outsideRequests.push(r.url());
    });
    page.on("response", (r) => {
      if (r.status() >= 400) failedResponses.push(`${r.status()} ${r.url()}`);
    });
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await stack?.stop();
  });

  it("serves the document at /openapi.json byte for byte, and the same document as YAML at /openapi.yaml", async () => {
    const json = await fetch(`${stack.baseUrl}/openapi.json`);
    expect(json.status).to.equal(200);
    expect(json.headers.get("content-type")).to.match(/^application\/json/);
    expect(await json.text()).to.equal(readFileSync(SPEC_PATH, "utf8"));
    const yaml = await fetch(`${stack.baseUrl}/openapi.yaml`);
    expect(yaml.status).to.equal(200);
    expect(yaml.headers.get("content-type")).to.match(/^application\/yaml/);
    expect(load(await yaml.text())).to.deep.equal(DOCUMENT);
  });

  it(
    "answers GET / with an index: HTML for a browser, JSON for curl, linking " + "reference, document, playground, health and metrics",
    async () => {
      const json = (await (await fetch(`${stack.baseUrl}/`, { headers: { Accept: "*/*" } })).json()) as { links: { href: string }[] };
      const hrefs = json.links.map((l) => l.href);
      for (const href of ["/docs", "/openapi.json", "/openapi.yaml", "/playground", "/healthz", "/readyz", "/metrics"])
        expect(hrefs).to.include(href);
      const response = await page.goto(`${stack.baseUrl}/`);
      expect(response?.status()).to.equal(200);
      expect(response?.headers()["content-type"]).to.match(/^text\/html/);
      expect(response?.headers()["content-security-policy"]).to.include("default-src 'self'");
      const links = await page.$$eval("a", (as) => as.map((a) => a.getAttribute("href")));
      for (const href of hrefs) expect(links).to.include(href);
      // Every link answers (the reference and the playground pages included).
      for (const href of hrefs) expect((await fetch(`${stack.baseUrl}${href}`)).status, href).to.equal(200);
      await page.screenshot({ path: join(shots, "01-index.png") });
    },
  );

  it("lists every operation of the document at /docs, loading nothing from elsewhere, under the playground's policy", async () => {
    const response = await page.goto(`${stack.baseUrl}/docs`);
    expect(response?.status()).to.equal(200);
    expect(response?.headers()["content-security-policy"]).to.equal(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: " +
        "blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action " +
        "'none'; frame-ancestors 'none'",
    );
    await page.waitForSelector(".opblock", { timeout: 30_000 });
    const listed = await page.$$eval(".opblock", (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector(".opblock-summary-method")?.textContent} ` +
          `${b.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`,
      ),
    );
    expect([...listed].sort()).to.deep.equal([...OPERATIONS].sort());
    expect(OPERATIONS.length).to.be.at.least(11);
    // "Try it out" goes to this service first, not to the document's default address.
    expect(await page.$eval(".servers select", (s) => (s as HTMLSelectElement).value)).to.equal(stack.baseUrl);
    await page.screenshot({ path: join(shots, "02-reference.png") });
  });

  it("sends an authenticated request from the page ('Try it out') and shows the service's answer", async () => {
    const account = await stack.account("docs-user");
    await page.click("button.authorize");
    const modal = page.locator(".modal-ux");
    // One form per security scheme, named in its heading ("userName (apiKey)", "apiKey (apiKey)", ...).
    const scheme = (name: string) => modal.locator("form", { has: page.locator("h4", { hasText: new RegExp(`^\\s*${name}\\b`) }) });
    await scheme("userName").locator("input").fill(account.user);
    await scheme("apiKey").locator("input").fill(account.key);
    for (const name of ["userName", "apiKey"]) await scheme(name).locator("button.authorize").click();
    await modal.locator("button.btn-done").first().click();

    const operation = page.locator("#operations-history-listHistory");
    await operation.locator(".opblock-summary").first().click();
    await operation.locator("button.try-out__btn").click();
    await operation.locator("button.execute").click();
    const status = operation.locator(".live-responses-table tr.response .response-col_status").first();
    await status.waitFor({ timeout: 30_000 });
    expect((await status.textContent())?.trim()).to.equal("200");
    const body = await operation.locator(".live-responses-table .microlight").first().textContent();
    expect(JSON.parse(body!)).to.include({ success: true });
    await operation.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, "03-try-it.png"), fullPage: false });
  });

  it("asked for nothing outside the service, met no 4xx (favicon included) and no page error", () => {
    expect(outsideRequests).to.deep.equal([]);
    expect(failedResponses).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
  });
});
