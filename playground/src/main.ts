import multiDepotCost from "../../examples/multi-depot-cost.json";
import pickupsAndDeliveries from "../../examples/pickups-and-deliveries.json";
import rushHour from "../../examples/rush-hour.json";
import serviceConstraints from "../../examples/service-constraints.json";
import smallCvrp from "../../examples/small-cvrp.json";
import timeWindows from "../../examples/time-windows.json";
import { downloadHistoryItem, listHistory, pollResult, submitSolve } from "./api.js";
import { renderFields } from "./fields-view.js";
import { followTask } from "./follow.js";
import { generateProblem } from "./generate.js";
import { parseVehicleList } from "./generate-time.js";
import { renderHistory } from "./history-view.js";
import { LiveView } from "./live-view.js";
import { ResultView } from "./result-view.js";
import { clearCredentials, describeCredentials, loadCredentials, saveCredentials, type Credentials } from "./session.js";
import type { Envelope, Progress, SolveRequest } from "./types.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const input = (id: string) => $<HTMLInputElement>(id);

const EXAMPLES: Record<string, unknown> = {
  "time-windows.json": timeWindows,
  "small-cvrp.json": smallCvrp,
  "multi-depot-cost.json": multiDepotCost,
  "pickups-and-deliveries.json": pickupsAndDeliveries,
  "service-constraints.json": serviceConstraints,
  "rush-hour.json": rushHour,
};

const results = new ResultView();
const live = new LiveView($("live-facts"), $<HTMLProgressElement>("live-bar"), $("live-log"), () => {
  const limit = currentRequest()?.time_limit_seconds;
  return typeof limit === "number" ? limit : null;
});
let following: AbortController | null = null;

// ---- login -------------------------------------------------------------------------------
function showLogin(credentials: Credentials | null): void {
  $("who").textContent = credentials ? `Logged in as ${describeCredentials(credentials)}` : "Not logged in.";
  $("logout-button").hidden = credentials === null;
  $("login-button").textContent = credentials ? "Log in again" : "Log in";
  $<HTMLButtonElement>("submit-button").disabled = credentials === null;
  $("history-note").textContent = credentials?.mode === "marketplace" ? "Marketplace tasks are not recorded in the planning history." : "";
  if (credentials?.mode === "direct") void refreshHistory();
  else {
    $("history-list").replaceChildren();
    $("history-more").hidden = true;
  }
}

for (const radio of document.querySelectorAll<HTMLInputElement>("input[name=mode]")) {
  radio.addEventListener("change", () => {
    const marketplace = radio.value === "marketplace" && radio.checked;
    $("marketplace-fields").hidden = !marketplace;
    $("direct-fields").hidden = marketplace;
    input("user").required = input("key").required = !marketplace;
  });
}

$("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const marketplace = document.querySelector<HTMLInputElement>("input[name=mode]:checked")?.value === "marketplace";
  const credentials: Credentials = marketplace
    ? {
        mode: "marketplace",
        secretHeader: input("secret-header").value.trim(),
        secret: input("secret").value,
        userHeader: input("user-header").value.trim(),
        user: input("platform-user").value.trim(),
      }
    : { mode: "direct", user: input("user").value.trim(), key: input("key").value.trim() };
  $("login-error").textContent = "";
  // The history list is the cheapest authenticated call: it proves the credentials before any submit.
  const answer = await listHistory(credentials, 1);
  if (answer.status !== 200) {
    $("login-error").textContent = `${answer.status}: ${answer.body.error ?? "refused"}`;
    return;
  }
  saveCredentials(credentials);
  input("key").value = input("secret").value = "";
  showLogin(credentials);
});

$("logout-button").addEventListener("click", () => {
  clearCredentials();
  showLogin(null);
});

// ---- the problem -------------------------------------------------------------------------
function currentRequest(): SolveRequest | null {
  try {
    const parsed = JSON.parse($<HTMLTextAreaElement>("request-json").value) as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as SolveRequest) : null;
  } catch {
    return null;
  }
}

function setRequest(request: unknown): void {
  const text = JSON.stringify(request, null, 2);
  $<HTMLTextAreaElement>("request-json").value = text;
  onRequestEdited();
}

function onRequestEdited(): void {
  const request = currentRequest();
  $("parse-error").textContent = request ? "" : "This is not a JSON object.";
  renderFields($("fields"), request);
  if (request && Array.isArray(request.node_demands) && Array.isArray(request.start_nodes)) results.showProblem(request);
}

const select = $<HTMLSelectElement>("example-select");
for (const name of Object.keys(EXAMPLES)) select.append(new Option(name, name));
$("example-load").addEventListener("click", () => setRequest(EXAMPLES[select.value]));
input("upload").addEventListener("change", async () => {
  const file = input("upload").files?.[0];
  if (file) {
    $<HTMLTextAreaElement>("request-json").value = await file.text();
    onRequestEdited();
  }
});
$("request-json").addEventListener("change", onRequestEdited);
$("gen-button").addEventListener("click", () =>
  setRequest(
    generateProblem({
      nodes: Number(input("gen-nodes").value),
      depots: Number(input("gen-depots").value),
      capacities: input("gen-capacities").checked,
      windows: input("gen-windows").checked,
      pickups: input("gen-pickups").checked,
      shipments: input("gen-shipments").checked,
      volume: input("gen-volume").checked,
      optional: input("gen-optional").checked,
      skills: input("gen-skills").checked,
      shifts: input("gen-shifts").checked,
      twoWindows: input("gen-two-windows").checked,
      breaks: input("gen-breaks").checked,
      profiles: input("gen-profiles").checked,
      bikeVehicles: parseVehicleList(input("gen-bikes").value),
      timeLimitSeconds: Number(input("gen-time").value),
      seed: Number(input("gen-seed").value),
    }),
  ),
);

// ---- submit and follow -------------------------------------------------------------------
$("submit-button").addEventListener("click", async () => {
  const credentials = loadCredentials();
  const request = currentRequest();
  $("submit-error").textContent = "";
  if (!credentials) return void ($("submit-error").textContent = "Log in first.");
  if (!request) return void ($("submit-error").textContent = "The request is not a JSON object.");
  following?.abort();
  results.showProblem(request);
  renderFields($("fields"), request);
  const answer = await submitSolve(credentials, request);
  if (answer.status !== 200) {
    // Refused: the previous task's progress would read as this request's.
    live.clear();
    $("submit-error").textContent =
      `${answer.status}: ${answer.body.error ?? "refused"}` +
      `${answer.body.retry_after_seconds ? ` (retry in ${answer.body.retry_after_seconds} s)` : ""}`;
    if (answer.body.detail) renderFields($("fields"), request, answer.body.detail);
    return;
  }
  const id = answer.body.request_id;
  live.start(id);
  const controller = new AbortController();
  following = controller;
  const signal = controller.signal;
  let seenImprovements = 0;
  const showBest = (routes: Record<string, number[]> | undefined) => {
    if (routes && !signal.aborted) results.showInterim(routes);
  };
  try {
    const final = await followTask(
      credentials,
      id,
      (state) => {
        live.update(state);
        const progress = state.progress;
        if (progress?.best?.routes) showBest(progress.best.routes);
        else if (progress?.feasible && (progress.improvements ?? 0) > seenImprovements) {
          // Stream events carry no routes: fetch the new best once per improvement report.
          seenImprovements = progress.improvements ?? 0;
          void pollResult(credentials, id, true).then((a) => showBest((a.body.result?.progress as Progress | undefined)?.best?.routes));
        }
      },
      signal,
    );
    controller.abort(); // the task is over: no late interim drawing over the final one
    showFinal(final.status, final.body);
    if (credentials.mode === "direct") void refreshHistory();
  } catch (err) {
    if (!signal.aborted) live.finish(`stopped: ${String(err)}`);
  }
});

function showFinal(status: number, body: Envelope): void {
  if (status !== 200) return live.finish(`error ${status}: ${body.error ?? ""}`);
  live.finish(results.showFinal(body));
}

// ---- history -----------------------------------------------------------------------------
let historyCursor: string | null = null;
// A refresh after each solve can overlap one the user asked for: only the latest request's
// answer is drawn, so a slow older answer never replaces a newer list.
let historyGeneration = 0;

/** The first page of the history, or with `more` the next one appended. */
async function refreshHistory(more = false): Promise<void> {
  const credentials = loadCredentials();
  if (!credentials || credentials.mode !== "direct") return;
  const generation = ++historyGeneration;
  const answer = await listHistory(credentials, 50, more ? historyCursor : null);
  if (generation !== historyGeneration) return;
  if (answer.status !== 200 || !answer.body.result) {
    $("history-note").textContent = `Could not load the history: ${answer.body.error ?? answer.status}`;
    return;
  }
  historyCursor = answer.body.result.next_cursor;
  $("history-more").hidden = historyCursor === null;
  renderHistory($("history-list"), answer.body.result.items, (id) => void reopen(id), more);
}

async function reopen(id: string): Promise<void> {
  const credentials = loadCredentials();
  if (!credentials) return;
  const answer = await downloadHistoryItem(credentials, id);
  if (answer.status !== 200 || !answer.body.request) {
    $("history-note").textContent = `Could not open ${id}: ${answer.body.error ?? answer.status}`;
    return;
  }
  following?.abort();
  live.stop();
  setRequest(answer.body.request);
  const result = answer.body.result;
  $("history-note").textContent = `Reopened ${id} (${answer.body.state}).`;
  if (result && result.result?.status !== "processing") showFinal(200, result);
  else live.finish(`${answer.body.state}: not finished yet`);
  $("result").scrollIntoView({ block: "start" });
}
$("history-refresh").addEventListener("click", () => void refreshHistory());
$("history-more").addEventListener("click", () => void refreshHistory(true));

// ---- start -------------------------------------------------------------------------------
setRequest(EXAMPLES["time-windows.json"]);
showLogin(loadCredentials());

/** For the measurement in test/playground: one full map render, and the map's node inspector. */
Object.assign(window, {
  vrpPlayground: {
    renderMap: () => {
      results.map.render();
      return results.map.lastRenderMs;
    },
    routeCount: () => results.map.routeCount,
    shipmentLinks: () => results.map.shipmentLinks,
  },
});
