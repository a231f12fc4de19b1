import { routesCsv, saveFile } from "./downloads.js";
import { RouteMap } from "./map-view.js";
import { classicalMds } from "./mds.js";
import { baseMinutes, buildPlanView } from "./plan-view.js";
import { renderRoutesTable } from "./routes-table.js";
import { renderTimelines } from "./timeline-view.js";
import { trafficSlotsOf } from "./traffic-view.js";
import { isSolved, type Envelope, type SolveRequest, type SolvedResult } from "./types.js";
import { renderUnassigned } from "./unassigned-view.js";
import { buildVisitRules } from "./visit-rules-view.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The routes section: map, timelines, route list and the two downloads, for one request. */
export class ResultView {
  readonly map = new RouteMap($<HTMLCanvasElement>("map"), $("tooltip"));
  private request: SolveRequest | null = null;
  private positions: [number, number][] = [];
  private envelope: Envelope | null = null;

  constructor() {
    $("download-json").addEventListener("click", () => {
      if (this.envelope)
        saveFile(`vrp-result-${this.envelope.request_id}.json`, "application/json", JSON.stringify(this.envelope, null, 2));
    });
    $("download-csv").addEventListener("click", () => {
      if (this.envelope && isSolved(this.envelope.result))
        saveFile(`vrp-routes-${this.envelope.request_id}.csv`, "text/csv", routesCsv(this.envelope.result));
    });
    $<HTMLInputElement>("inspect-node").addEventListener("input", (e) => {
      const value = (e.target as HTMLInputElement).value;
      this.map.inspect(value === "" ? null : Number(value));
    });
  }

  /** A new problem: nodes on the map (positions, or an approximate MDS layout), no routes yet. */
  showProblem(request: SolveRequest): void {
    this.request = request;
    $<HTMLInputElement>("inspect-node").value = "";
    this.map.inspect(null);
    const given = request.node_positions;
    const note = $("layout-note");
    if (Array.isArray(given) && given.length === request.node_num) {
      this.positions = given;
      note.hidden = true;
    } else {
      this.positions = request.distance_matrix.length === request.node_num ? classicalMds(request.distance_matrix) : [];
      note.hidden = false;
      note.textContent =
        this.positions.length > 0
          ? "This request has no node_positions: the nodes are placed by classical " +
            "multidimensional scaling of the distance matrix, so the layout is approximate."
          : "This request has neither node_positions nor a full distance matrix: nothing to draw.";
    }
    this.clear();
  }

  clear(): void {
    this.envelope = null;
    this.setDownloads(false);
    $("timelines").replaceChildren();
    $("routes-table").replaceChildren();
    $("summary").replaceChildren();
    $("legend").replaceChildren();
    this.showUnassigned(null);
    if (this.request) this.map.show(this.request, this.positions, null);
  }

  /** Routes of a search still running (progress `best`), drawn on the map only. */
  showInterim(routes: Record<string, number[]>): void {
    if (!this.request) return;
    const partial: SolvedResult = {
      status: "solved",
      success: true,
      error: null,
      total_cost: 0,
      routes,
      distances: [],
      loads: {},
      time_windows: {},
      time: 0,
      request_id: "",
    };
    this.map.show(this.request, this.positions, buildPlanView(this.request, partial));
  }

  /** A final poll response: the solution drawn and listed, or the failure said. */
  showFinal(envelope: Envelope): string {
    if (!this.request) return "no request to show";
    this.envelope = envelope;
    if (!isSolved(envelope.result)) {
      this.setDownloads(false);
      $("download-json").removeAttribute("disabled");
      return `failed: ${envelope.error ?? "unknown error"}`;
    }
    const result = envelope.result;
    const plan = buildPlanView(this.request, result);
    const base = baseMinutes(this.request);
    this.map.show(this.request, this.positions, plan);
    $("legend").replaceChildren(
      ...plan.vehicles.map((v) => {
        const span = document.createElement("span");
        span.style.setProperty("--c", v.color);
        span.dataset.color = v.color;
        span.dataset.vehicle = v.label;
        span.textContent = v.label;
        return span;
      }),
    );
    renderTimelines($("timelines"), plan, base, trafficSlotsOf(this.request));
    this.showUnassigned(plan);
    const rules = buildVisitRules(this.request, plan);
    renderRoutesTable($<HTMLTableElement>("routes-table"), $("summary"), plan, result, base, rules);
    this.setDownloads(true);
    const unused = this.request.vehicle_num - plan.vehicles.length;
    const left = plan.unassigned.size > 0 ? `, ${plan.unassigned.size} unassigned` : "";
    return (
      `solved: cost ${result.total_cost.toFixed(2)}, ${plan.vehicles.length} ` +
      `vehicle${plan.vehicles.length === 1 ? "" : "s"} ` +
      `used${unused > 0 ? ` (${unused} unused)` : ""}${left}, ${result.time.toFixed(2)} s`
    );
  }

  private showUnassigned(plan: Parameters<typeof renderUnassigned>[2]): void {
    renderUnassigned($("unassigned"), $("unassigned-list"), plan, (node) => {
      $<HTMLInputElement>("inspect-node").value = String(node);
      this.map.inspect(node);
    });
  }

  private setDownloads(enabled: boolean): void {
    for (const id of ["download-json", "download-csv"]) $<HTMLButtonElement>(id).disabled = !enabled;
  }
}
