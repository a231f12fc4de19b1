import { describeOnBoard, drawOnBoard } from "./onboard-view.js";
import type { PlanView, VehiclePlan } from "./plan-view.js";
import { minutesToClock } from "./plan-view.js";
import { trafficRow, type TrafficSlot } from "./traffic-view.js";

export const TIMELINE_COLORS = {
  driving: "#4a6fa5",
  waiting: "#e0a526",
  service: "#2e8b57",
  lateness: "#c62828",
  window: "rgba(74, 111, 165, 0.16)",
  cap: "#7b1fa2",
  shift: "#00897b",
  break: "#6d4c41",
  reload: "#1b5e20",
  locked: "#212121",
};

const ROW_HEIGHT = 26;

/**
 * Each used vehicle's day as one row: driving, waiting, service and lateness in their colours, the
 * stops' windows behind them, the vehicle's shift as a teal bracket (vehicle_time_windows), its
 * working-hours cap (its own, else the request's) as a dashed line, and the load against the
 * vehicle's capacity. All rows share one time axis. Without the time dimension a row shows the
 * route's distance instead. With pickups or shipments (`loads_on_board`) a step line shows the
 * load on board along the row, and the load column shows its peak against the capacity. A stop with
 * several windows shows each of them; breaks are brown bars, and locked stops (vehicle_locked_stops)
 * have a dark mark above their service; a reload stop (several trips) is a full-height green mark, and
 * the load column then shows the fullest trip. Each row also says its day in words (aria-label) for screen readers.
 */
export function renderTimelines(container: HTMLElement, plan: PlanView, base: number, traffic: readonly TrafficSlot[] = []): void {
  container.replaceChildren();
  const starts = plan.vehicles.map((v) =>
    Math.min(v.depart ?? 0, ...v.stops.map((s) => s.window?.[0] ?? Infinity), v.shift?.[0] ?? Infinity, ...v.breaks.map((b) => b.start)),
  );
  const ends = plan.vehicles.map((v) =>
    Math.max(
      v.finish ?? 0,
      ...v.stops.map((s) => s.window?.[1] ?? -Infinity),
      v.capMinutes !== null && v.depart !== null ? v.depart + v.capMinutes : -Infinity,
      v.shift?.[1] ?? -Infinity,
    ),
  );
  const axis = plan.timed
    ? { from: Math.min(...starts), to: Math.max(...ends) }
    : { from: 0, to: Math.max(1, ...plan.vehicles.map((v) => v.distance)) };
  if (!plan.timed) {
    const note = document.createElement("p");
    note.className = "note";
    note.textContent =
      "No time dimension in this request (it needs node_time_windows, " +
      "node_service_time and vehicle_speeds): the bars show each route's distance.";
    container.append(note);
  }
  container.append(axisRow(axis, plan.timed, base));
  // Traffic by time of day: its slots as a band on the same axis.
  if (plan.timed && traffic.length > 0) container.append(trafficRow(traffic, axis, base));
  for (const vehicle of plan.vehicles) container.append(vehicleRow(vehicle, plan, axis, base));
}

function axisRow(axis: { from: number; to: number }, timed: boolean, base: number): HTMLElement {
  const row = document.createElement("div");
  row.className = "tl-axis";
  row.setAttribute("aria-hidden", "true");
  const ticks = 6;
  for (let i = 0; i <= ticks; i++) {
    const value = axis.from + ((axis.to - axis.from) * i) / ticks;
    const tick = document.createElement("span");
    tick.style.left = `${(i / ticks) * 100}%`;
    tick.textContent = timed ? minutesToClock(value, base).slice(0, 5) : value.toFixed(0);
    row.append(tick);
  }
  return row;
}

function vehicleRow(vehicle: VehiclePlan, plan: PlanView, axis: { from: number; to: number }, base: number): HTMLElement {
  const row = document.createElement("div");
  row.className = "tl-row";
  row.dataset.vehicle = vehicle.label;
  row.tabIndex = 0;
  const label = document.createElement("span");
  label.className = "tl-label";
  label.style.borderLeftColor = vehicle.color;
  label.textContent = vehicle.label;
  const canvas = document.createElement("canvas");
  canvas.className = "tl-canvas";
  const load = document.createElement("span");
  load.className = "tl-load";
  const fill = document.createElement("span");
  const shown = vehicle.onBoard ? Math.max(...vehicle.onBoard) : vehicle.trips > 1 ? vehicle.peakTripLoad : vehicle.load;
  fill.className = shown > vehicle.capacity ? "tl-load-fill over" : "tl-load-fill";
  fill.style.width = `${Math.min(100, (shown / (vehicle.capacity || 1)) * 100)}%`;
  const text = document.createElement("span");
  text.className = "tl-load-text";
  text.textContent = vehicle.onBoard
    ? `peak ${shown} / ${vehicle.capacity}`
    : vehicle.trips > 1
      ? `${vehicle.trips} trips, peak ${shown} / ${vehicle.capacity}`
      : `${vehicle.load} / ${vehicle.capacity}`;
  load.append(fill, text);
  row.append(label, canvas, load);
  const totals = dayTotals(vehicle);
  row.dataset.depart = vehicle.depart === null ? "" : minutesToClock(vehicle.depart, base);
  row.dataset.finish = vehicle.finish === null ? "" : minutesToClock(vehicle.finish, base);
  row.dataset.load = String(vehicle.load);
  if (vehicle.shift) row.dataset.shift = `${minutesToClock(vehicle.shift[0], base)}–${minutesToClock(vehicle.shift[1], base)}`;
  if (vehicle.onBoard) row.dataset.onBoard = vehicle.onBoard.join(",");
  const breaks = vehicle.breaks.map((b) => `${minutesToClock(b.start, base).slice(0, 5)}–${minutesToClock(b.end, base).slice(0, 5)}`);
  if (breaks.length > 0) row.dataset.breaks = breaks.join(",");
  const locked = vehicle.stops.filter((s) => s.locked).map((s) => s.node);
  if (locked.length > 0) row.dataset.locked = locked.join(",");
  if (vehicle.profile) row.dataset.profile = vehicle.profile;
  const reloads = vehicle.stops.filter((s) => s.reload && s.arrive !== null).map((s) => minutesToClock(s.arrive!, base).slice(0, 5));
  if (vehicle.trips > 1) row.dataset.trips = String(vehicle.trips);
  const extras =
    (vehicle.profile ? `; profile ${vehicle.profile}` : "") +
    (breaks.length > 0 ? `; break${breaks.length > 1 ? "s" : ""} ${breaks.join(", ")}` : "") +
    (locked.length > 0 ? `; locked stops ${locked.join(", ")}` : "") +
    (vehicle.trips > 1 ? `; ${vehicle.trips} trips, back at the depot at ${reloads.join(", ")}` : "");
  const onBoardText = (vehicle.onBoard ? `; ${describeOnBoard(vehicle)}` : "") + extras;
  row.setAttribute(
    "aria-label",
    (plan.timed
      ? `${vehicle.label}: ${vehicle.shift ? `shift ${row.dataset.shift}; ` : ""}departs ` +
        `${row.dataset.depart}, back ${row.dataset.finish}; driving ` +
        `${totals.driving.toFixed(0)} min, waiting ${totals.waiting.toFixed(0)} min, ` +
        `service ${totals.service.toFixed(0)} min, late ${vehicle.lateness.toFixed(1)} ` +
        `min; load ${vehicle.load} of ${vehicle.capacity}`
      : `${vehicle.label}: distance ${vehicle.distance.toFixed(1)}; load ${vehicle.load} of ${vehicle.capacity}`) + onBoardText,
  );
  row.title = row.getAttribute("aria-label")!;
  requestAnimationFrame(() => drawRow(canvas, vehicle, plan, axis));
  return row;
}

function dayTotals(vehicle: VehiclePlan): { driving: number; waiting: number; service: number } {
  let driving = 0,
    waiting = 0,
    service = 0;
  vehicle.stops.forEach((stop, i) => {
    const previous = vehicle.stops[i - 1];
    if (previous?.leave != null && stop.arrive !== null) driving += stop.arrive - previous.leave;
    waiting += stop.waiting;
    service += stop.service;
  });
  // A break after departure sits in a gap between a leave time and the next arrival; one before departure does not.
  for (const b of vehicle.breaks) if (vehicle.depart !== null && b.start >= vehicle.depart) driving -= b.end - b.start;
  return { driving, waiting, service };
}

function drawRow(canvas: HTMLCanvasElement, vehicle: VehiclePlan, plan: PlanView, axis: { from: number; to: number }): void {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth,
    h = ROW_HEIGHT;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext("2d")!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const x = (t: number) => ((t - axis.from) / (axis.to - axis.from || 1)) * w;
  const bar = (from: number, to: number, color: string, top = 7, height = 12) => {
    if (to <= from) return;
    ctx.fillStyle = color;
    ctx.fillRect(x(from), top, Math.max(1, x(to) - x(from)), height);
  };
  if (!plan.timed) {
    bar(0, vehicle.distance, TIMELINE_COLORS.driving);
    drawOnBoard(ctx, vehicle, x, false, h);
    return;
  }
  for (const stop of vehicle.stops) {
    if (!stop.served) continue;
    for (const [from, to] of stop.windows ?? (stop.window ? [stop.window] : [])) bar(from, to, TIMELINE_COLORS.window, 2, 22);
  }
  vehicle.stops.forEach((stop, i) => {
    const previous = vehicle.stops[i - 1];
    if (previous?.leave != null && stop.arrive !== null) bar(previous.leave, stop.arrive, TIMELINE_COLORS.driving);
    if (stop.arrive !== null && stop.serviceStart !== null) bar(stop.arrive, stop.serviceStart, TIMELINE_COLORS.waiting);
    if (stop.serviceStart !== null) bar(stop.serviceStart, stop.serviceStart + stop.service, TIMELINE_COLORS.service);
    if (stop.lateness > 0 && stop.window && stop.serviceStart !== null)
      bar(stop.window[1], stop.serviceStart, TIMELINE_COLORS.lateness, 19, 5);
    if (stop.locked && stop.serviceStart !== null)
      bar(stop.serviceStart, stop.serviceStart + Math.max(stop.service, 1), TIMELINE_COLORS.locked, 3, 3);
  });
  // A reload stop ends a trip: a full-height mark at its arrival.
  ctx.fillStyle = TIMELINE_COLORS.reload;
  for (const stop of vehicle.stops) if (stop.reload && stop.arrive !== null) ctx.fillRect(x(stop.arrive) - 1, 0, 3, h);
  // Breaks fall between a stop's leave time and the next arrival: drawn over that stretch's driving.
  for (const b of vehicle.breaks) bar(b.start, b.end, TIMELINE_COLORS.break);
  if (vehicle.shift) {
    // The shift as a bracket: a thin bar along the top with a tick at each end.
    const [from, to] = vehicle.shift;
    ctx.fillStyle = TIMELINE_COLORS.shift;
    ctx.fillRect(x(from), 0, Math.max(1, x(to) - x(from)), 3);
    ctx.fillRect(x(from), 0, 3, h);
    ctx.fillRect(x(to) - 3, 0, 3, h);
  }
  if (vehicle.capMinutes !== null && vehicle.depart !== null) {
    const cx = x(vehicle.depart + vehicle.capMinutes);
    ctx.strokeStyle = TIMELINE_COLORS.cap;
    ctx.setLineDash([3, 3]);
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(cx, 0);
    ctx.lineTo(cx, h);
    ctx.stroke();
  }
  drawOnBoard(ctx, vehicle, x, true, h);
}
