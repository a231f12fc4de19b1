import type { TimeBlock } from "../../strategies/core/problem.js";
import type { TrafficSlots } from "../../strategies/core/traffic.js";
import type { TrafficFields } from "./constraint-fields.js";

/**
 * Traffic by time of day, compiled (input already validated): null without the field or without
 * the time dimension, so a request without it compiles exactly as before.
 */
export function compileTraffic(req: TrafficFields, time: TimeBlock | null): TrafficSlots | null {
  const slots = req.time_dependent_durations;
  if (!time || slots == null || slots.length === 0) return null;
  return { start: Float64Array.from(slots, (s) => s.start), factor: Float64Array.from(slots, (s) => s.factor) };
}
