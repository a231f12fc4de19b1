import type { SolveRequest } from "./types.js";

export interface TimeFieldOptions {
  /** Two windows per customer: the generated one, and a later one in the afternoon. */
  twoWindows?: boolean;
  /** A 30-minute lunch break per vehicle, to start between 3.5 and 6 hours into the day. */
  breaks?: boolean;
  /** A `bike` network beside the request's (the same roads at about a third of the pace) for the vehicles in `bikeVehicles`. */
  profiles?: boolean;
  /** Vehicle indices that ride the bike profile (default: every third vehicle). */
  bikeVehicles?: number[];
}

const DAY_MINUTES = 720;
/** Above this many nodes a profile's n x n matrix would make the request too large to edit in the page. */
export const PROFILE_MAX_NODES = 400;

/**
 * Several windows, breaks and vehicle profiles on a generated problem with windows (the fields of
 * constraints.md, "Time and cost as partners measure them"), built to stay solvable: a customer's
 * second window only adds choice, a break fits every shift, and bikes are slower on the same roads.
 */
export function addTimeFields(request: SolveRequest, options: TimeFieldOptions, rand: () => number, depots: number): void {
  const windows = request.node_time_windows;
  if (!Array.isArray(windows)) return;
  const names: string[] = [];
  if (options.twoWindows) {
    const sets = windows.map(([start, end], i): [number, number][] | null => {
      if (i < depots || end + 150 > DAY_MINUTES - 60) return null;
      const later = end + 60 + Math.floor(rand() * 60);
      return [
        [start, end],
        [later, later + 60],
      ];
    });
    request.node_time_window_sets = sets;
    request.node_time_windows = windows.map((w, i) => (sets[i] ? [w[0], sets[i]![1]![1]] : w));
    names.push("two windows");
  }
  if (options.breaks) {
    request.vehicle_breaks = Array.from({ length: request.vehicle_num }, () => {
      const earliest = 210 + Math.floor(rand() * 60);
      return [{ earliest_start: earliest, latest_start: earliest + 90, duration: 30 }];
    });
    names.push("breaks");
  }
  if (options.profiles && request.node_num <= PROFILE_MAX_NODES && Array.isArray(request.node_positions)) {
    const positions = request.node_positions;
    const bikes = new Set(options.bikeVehicles ?? Array.from({ length: request.vehicle_num }, (_, v) => v).filter((v) => v % 3 === 2));
    // Travel minutes of the bike network; the vans keep the request's distance / speed.
    request.profiles = {
      bike: { duration_matrix: positions.map((a) => positions.map((b) => Math.round(30 * Math.hypot(a[0] - b[0], a[1] - b[1])) / 10)) },
    };
    request.vehicle_profiles = Array.from({ length: request.vehicle_num }, (_, v) => (bikes.has(v) ? "bike" : null));
    names.push("bike profile");
  }
  if (names.length > 0) request.name = `${request.name ?? "Random"}, ${names.join(", ")}`;
}

/** "0, 2,5" as vehicle indices; an empty or unreadable text gives undefined (the default choice). */
export function parseVehicleList(text: string): number[] | undefined {
  const parts = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (parts.length === 0 || parts.some((s) => !/^\d+$/.test(s))) return undefined;
  return parts.map(Number);
}
