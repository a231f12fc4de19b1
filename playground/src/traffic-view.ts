import { minutesToClock } from "./plan-view.js";
import type { SolveRequest } from "./types.js";

/** One slot of `time_dependent_durations`, in minutes after `base_start_time`; `end` is the next slot's start. */
export interface TrafficSlot {
  start: number;
  end: number;
  factor: number;
}

/** The request's traffic slots (none without the field). */
export function trafficSlotsOf(request: SolveRequest): TrafficSlot[] {
  const slots = request.time_dependent_durations as { start: number; factor: number }[] | undefined | null;
  if (!Array.isArray(slots)) return [];
  return slots.map((s, k) => ({ start: s.start, end: slots[k + 1]?.start ?? Number.POSITIVE_INFINITY, factor: s.factor }));
}

/** The slots that change the pace (factor other than 1) clipped to the time axis, as shares of its width. */
export function trafficBands(
  slots: readonly TrafficSlot[],
  axis: { from: number; to: number },
): { left: number; width: number; slot: TrafficSlot }[] {
  const span = axis.to - axis.from || 1;
  return slots
    .filter((s) => s.factor !== 1 && s.end > axis.from && s.start < axis.to)
    .map((slot) => {
      const from = Math.max(slot.start, axis.from);
      const to = Math.min(slot.end, axis.to);
      return { left: (from - axis.from) / span, width: (to - from) / span, slot };
    });
}

/**
 * The traffic slots as a band above the timelines, on their time axis: slower slots red, faster
 * ones green, each saying its pace and hours (title and aria-label) for readers of the page.
 */
export function trafficRow(slots: readonly TrafficSlot[], axis: { from: number; to: number }, base: number): HTMLElement {
  const row = document.createElement("div");
  row.className = "tl-traffic";
  const clock = (t: number) => (Number.isFinite(t) ? minutesToClock(t, base).slice(0, 5) : "the end of the day");
  const words: string[] = [];
  for (const { left, width, slot } of trafficBands(slots, axis)) {
    const band = document.createElement("span");
    band.className = slot.factor > 1 ? "tl-traffic-slot slower" : "tl-traffic-slot faster";
    band.style.left = `${left * 100}%`;
    band.style.width = `${width * 100}%`;
    band.dataset.factor = String(slot.factor);
    const text = `driving x${slot.factor} from ${clock(slot.start)} to ${clock(slot.end)}`;
    band.title = text;
    band.textContent = `x${slot.factor}`;
    words.push(text);
    row.append(band);
  }
  row.setAttribute("aria-label", words.length > 0 ? `Traffic: ${words.join("; ")}` : "Traffic: the same pace all day");
  return row;
}
