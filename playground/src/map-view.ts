import { describeLoads, drawShipmentLinks, shipmentsOf } from "./map-pairs.js";
import type { PlanView } from "./plan-view.js";
import { baseMinutes, minutesToClock } from "./plan-view.js";
import type { SolveRequest } from "./types.js";
import { buildVisitRules, describeVisitRules, type VisitRulesView } from "./visit-rules-view.js";

const PAD = 24;
const HIT_RADIUS_PX = 9;
/** Customers the plan leaves unserved (the result's `unassigned`): a ring with a cross, apart from the served dots. */
export const UNASSIGNED_COLOR = "#d81b60";

/**
 * The route map on a canvas: nodes, depots (squares), one polyline per vehicle in its colour with
 * arrows for the direction of travel. The scene is drawn once into an offscreen canvas; hover and
 * keyboard inspection only copy it and draw a highlight, so 2,000 nodes stay responsive. Nodes are
 * found under the pointer through a uniform grid. Keys: arrows pan, + and - zoom, 0 resets.
 */
export class RouteMap {
  private request: SolveRequest | null = null;
  private plan: PlanView | null = null;
  private rules: VisitRulesView | null = null;
  private positions: [number, number][] = [];
  private depots = new Set<number>();
  private zoom = 1;
  private panX = 0;
  private panY = 0;
  private scene = document.createElement("canvas");
  private grid = new Map<number, number[]>();
  private cellPx = 24;
  private focused: number | null = null;
  /** Milliseconds the last full scene render took (shown for the 2,000-node measurement). */
  lastRenderMs = 0;
  /** Shipments linked on the map by the last render (read by the tests). */
  shipmentLinks = 0;

  constructor(
    private canvas: HTMLCanvasElement,
    private tooltip: HTMLElement,
  ) {
    canvas.addEventListener("pointermove", (e) => this.inspectAt(e.offsetX, e.offsetY));
    canvas.addEventListener("pointerleave", () => this.inspect(null));
    canvas.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        this.zoomBy(e.deltaY < 0 ? 1.25 : 0.8);
      },
      { passive: false },
    );
    canvas.addEventListener("keydown", (e) => this.onKey(e));
    new ResizeObserver(() => this.render()).observe(canvas);
  }

  show(request: SolveRequest, positions: [number, number][], plan: PlanView | null): void {
    this.request = request;
    this.positions = positions;
    this.plan = plan;
    this.rules = buildVisitRules(request, plan);
    this.depots = new Set([...request.start_nodes, ...request.end_nodes]);
    this.render();
  }

  /** Routes drawn (one per used vehicle); read by the tests and the legend. */
  get routeCount(): number {
    return this.plan?.vehicles.length ?? 0;
  }

  private transform(): { scale: number; x: (wx: number) => number; y: (wy: number) => number } {
    const xs = this.positions.map((p) => p[0]);
    const ys = this.positions.map((p) => p[1]);
    const minX = Math.min(...xs),
      maxX = Math.max(...xs),
      minY = Math.min(...ys),
      maxY = Math.max(...ys);
    const w = this.canvas.clientWidth,
      h = this.canvas.clientHeight;
    const scale = Math.min((w - 2 * PAD) / (maxX - minX || 1), (h - 2 * PAD) / (maxY - minY || 1)) * this.zoom;
    const cx = (minX + maxX) / 2,
      cy = (minY + maxY) / 2;
    // Screen y grows downwards; flip so north is up.
    return { scale, x: (wx) => w / 2 + (wx - cx) * scale + this.panX, y: (wy) => h / 2 - (wy - cy) * scale + this.panY };
  }

  /** Full redraw of the scene (on new data, resize, zoom or pan). */
  render(): void {
    const started = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.clientWidth,
      h = this.canvas.clientHeight;
    for (const c of [this.canvas, this.scene]) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const ctx = this.scene.getContext("2d")!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, w, h);
    if (this.positions.length === 0) return this.present();
    const t = this.transform();
    const sx = this.positions.map((p) => t.x(p[0]));
    const sy = this.positions.map((p) => t.y(p[1]));
    const dense = this.positions.length > 300;
    const nodeRadius = dense ? 2 : 4;
    // One path per colour, filled once: thousands of separate fills cost several times more.
    ctx.fillStyle = "#555b66";
    ctx.beginPath();
    for (let i = 0; i < sx.length; i++) {
      if (this.depots.has(i)) continue;
      ctx.moveTo(sx[i]! + nodeRadius, sy[i]!);
      ctx.arc(sx[i]!, sy[i]!, nodeRadius, 0, 2 * Math.PI);
    }
    ctx.fill();
    this.drawUnassigned(ctx, sx, sy, dense ? 4 : 7);
    for (const vehicle of this.plan?.vehicles ?? []) {
      ctx.strokeStyle = vehicle.color;
      ctx.fillStyle = vehicle.color;
      ctx.lineWidth = dense ? 1.5 : 2.5;
      ctx.beginPath();
      vehicle.route.forEach((node, i) => (i === 0 ? ctx.moveTo(sx[node]!, sy[node]!) : ctx.lineTo(sx[node]!, sy[node]!)));
      ctx.stroke();
      ctx.beginPath();
      for (let i = 1; i < vehicle.route.length; i++)
        arrowPath(
          ctx,
          sx[vehicle.route[i - 1]!]!,
          sy[vehicle.route[i - 1]!]!,
          sx[vehicle.route[i]!]!,
          sy[vehicle.route[i]!]!,
          dense ? 4 : 7,
        );
      ctx.fill();
    }
    const served = (node: number) => this.plan?.visits.get(node)?.plan.color ?? null;
    this.shipmentLinks = drawShipmentLinks(ctx, shipmentsOf(this.request!), sx, sy, served, dense);
    ctx.fillStyle = "#000000";
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = 1.5;
    const depotSize = dense ? 8 : 11;
    for (const d of this.depots) {
      ctx.fillRect(sx[d]! - depotSize / 2, sy[d]! - depotSize / 2, depotSize, depotSize);
      ctx.strokeRect(sx[d]! - depotSize / 2, sy[d]! - depotSize / 2, depotSize, depotSize);
    }
    this.buildGrid(sx, sy);
    this.lastRenderMs = performance.now() - started;
    this.present();
  }

  /** Unserved customers: a thick ring and a cross in UNASSIGNED_COLOR over their dot. */
  private drawUnassigned(ctx: CanvasRenderingContext2D, sx: number[], sy: number[], r: number): void {
    const unassigned = this.plan?.unassigned;
    if (!unassigned || unassigned.size === 0) return;
    ctx.strokeStyle = UNASSIGNED_COLOR;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    for (const node of unassigned.keys()) {
      const x = sx[node],
        y = sy[node];
      if (x === undefined || y === undefined) continue;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.moveTo(x - r * 0.6, y - r * 0.6);
      ctx.lineTo(x + r * 0.6, y + r * 0.6);
      ctx.moveTo(x + r * 0.6, y - r * 0.6);
      ctx.lineTo(x - r * 0.6, y + r * 0.6);
    }
    ctx.stroke();
  }

  private buildGrid(sx: number[], sy: number[]): void {
    this.grid.clear();
    for (let i = 0; i < sx.length; i++) {
      const key = this.cellKey(sx[i]!, sy[i]!);
      const bucket = this.grid.get(key);
      if (bucket) bucket.push(i);
      else this.grid.set(key, [i]);
    }
    this.screen = { sx, sy };
  }

  private screen: { sx: number[]; sy: number[] } = { sx: [], sy: [] };

  private cellKey(x: number, y: number): number {
    return Math.floor(x / this.cellPx) * 100003 + Math.floor(y / this.cellPx);
  }

  /** The node nearest to a screen point within the hit radius, via the grid's 3 x 3 cells. */
  nodeAt(x: number, y: number): number | null {
    let best: number | null = null;
    let bestD = HIT_RADIUS_PX * HIT_RADIUS_PX;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const i of this.grid.get(this.cellKey(x + dx * this.cellPx, y + dy * this.cellPx)) ?? []) {
          const d = (this.screen.sx[i]! - x) ** 2 + (this.screen.sy[i]! - y) ** 2;
          if (d <= bestD) {
            bestD = d;
            best = i;
          }
        }
      }
    }
    return best;
  }

  inspectAt(x: number, y: number): void {
    this.inspect(this.nodeAt(x, y));
  }

  /** Highlights a node and shows its index, demand, window, arrival and waiting (null hides it). */
  inspect(node: number | null): void {
    this.focused = node !== null && node >= 0 && node < this.positions.length ? node : null;
    this.present();
  }

  private present(): void {
    const ctx = this.canvas.getContext("2d")!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (this.scene.width === 0 || this.scene.height === 0) return; // not laid out (yet)
    ctx.drawImage(this.scene, 0, 0);
    const node = this.focused;
    if (node === null || !this.request) {
      this.tooltip.hidden = true;
      return;
    }
    const dpr = window.devicePixelRatio || 1;
    const x = this.screen.sx[node]!,
      y = this.screen.sy[node]!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.strokeStyle = "#111111";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(x, y, 8, 0, 2 * Math.PI);
    ctx.stroke();
    this.tooltip.hidden = false;
    this.tooltip.textContent = this.describe(node);
    this.tooltip.style.left = `${Math.min(x + 12, this.canvas.clientWidth - 220)}px`;
    this.tooltip.style.top = `${y + 12}px`;
  }

  describe(node: number): string {
    const request = this.request!;
    const lines = [`Node ${node}${this.depots.has(node) ? " (depot)" : ""}`, `demand ${request.node_demands[node] ?? "?"}`];
    const window = request.node_time_windows?.[node];
    const base = baseMinutes(request);
    if (window) lines.push(`window ${minutesToClock(window[0], base)}–${minutesToClock(window[1], base)}`);
    lines.push(...describeLoads(request, node));
    const visit = this.plan?.visits.get(node);
    if (visit) {
      lines.push(`served by ${visit.plan.label}`);
      if (visit.stop.onBoard !== null) lines.push(`on board after it ${visit.stop.onBoard}`);
      if (visit.stop.arrive !== null)
        lines.push(`arrival ${minutesToClock(visit.stop.arrive, base)}`, `waiting ${visit.stop.waiting.toFixed(1)} min`);
      if (visit.stop.lateness > 0) lines.push(`late ${visit.stop.lateness.toFixed(1)} min`);
    }
    if (this.rules) lines.push(...describeVisitRules(this.rules, node));
    const left = this.plan?.unassigned.get(node);
    if (left) lines.push(`unassigned: ${left.reason}`, left.message);
    return lines.join("\n");
  }

  zoomBy(factor: number): void {
    this.zoom = Math.min(40, Math.max(0.5, this.zoom * factor));
    this.panX *= factor;
    this.panY *= factor;
    this.render();
  }

  private onKey(e: KeyboardEvent): void {
    const step = 40;
    const moves: Record<string, () => void> = {
      ArrowLeft: () => (this.panX += step),
      ArrowRight: () => (this.panX -= step),
      ArrowUp: () => (this.panY += step),
      ArrowDown: () => (this.panY -= step),
    };
    if (moves[e.key]) {
      moves[e.key]!();
      this.render();
    } else if (e.key === "+" || e.key === "=") this.zoomBy(1.25);
    else if (e.key === "-") this.zoomBy(0.8);
    else if (e.key === "0") {
      this.zoom = 1;
      this.panX = this.panY = 0;
      this.render();
    } else return;
    e.preventDefault();
  }
}

/** Adds a small triangle pointing along the segment at its middle to the current path. */
function arrowPath(ctx: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number, size: number): void {
  const length = Math.hypot(x2 - x1, y2 - y1);
  if (length < size * 3) return; // too short to show an arrow clearly
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const mx = (x1 + x2) / 2,
    my = (y1 + y2) / 2;
  ctx.moveTo(mx + Math.cos(angle) * size, my + Math.sin(angle) * size);
  ctx.lineTo(mx + Math.cos(angle + 2.5) * size, my + Math.sin(angle + 2.5) * size);
  ctx.lineTo(mx + Math.cos(angle - 2.5) * size, my + Math.sin(angle - 2.5) * size);
  ctx.closePath();
}
