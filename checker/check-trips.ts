import { expect } from "chai";

/** The several-trips fields of a request, as the checker reads them. */
export interface TripFieldsOfRequest {
  vehicle_reload_nodes?: (number[] | null)[] | null;
  vehicle_max_reloads?: (number | null)[] | null;
  node_release_times?: number[] | null;
  node_time_windows?: number[][] | null;
  base_start_time?: number[];
}

interface TimedResult {
  time_windows?: Record<string, string[][]>;
  route_details?: Record<string, unknown>;
}

/** Minutes after base_start_time of an HH:MM:SS clock time. */
function minutesOf(clock: string, base: number[]): number {
  const [h, m, s] = clock.split(":").map(Number) as [number, number, number];
  const [bh = 9, bm = 0, bs = 0] = base;
  return (h * 3600 + m * 60 + s - (bh * 3600 + bm * 60 + bs)) / 60;
}

/**
 * The rules of several trips on one route (the caller checks capacity per trip and loads): at
 * most the vehicle's reloads, and with release times every trip leaving its depot (the start
 * node or a reload stop, read off `time_windows` to the second) no earlier than the largest
 * release time of its customers, a reload stop left no earlier than its window opens; and the
 * route details' reload count and trips.
 */
export function checkTripRules(request: TripFieldsOfRequest, result: TimedResult, label: string, v: number, route: number[]): void {
  const reload = new Set(request.vehicle_reload_nodes?.[v] ?? []);
  const stops = route.map((node, i) => i > 0 && i < route.length - 1 && reload.has(node));
  const reloads = stops.filter(Boolean).length;
  const limit = request.vehicle_max_reloads?.[v];
  if (limit != null) expect(reloads, `${label} reload stops`).to.be.at.most(limit);
  const detail = result.route_details?.[label] as { reloads?: number; trips?: { stops: number }[] } | undefined;
  if (detail && (request.vehicle_reload_nodes || request.node_release_times)) {
    expect(detail.reloads, `${label} route_details.reloads`).to.equal(reloads);
    expect(detail.trips, `${label} route_details.trips`).to.have.length(reloads + 1);
  }
  const release = request.node_release_times;
  const times = result.time_windows?.[label];
  if (!times || times.length === 0) return;
  const base = request.base_start_time ?? [9, 0, 0];
  const slack = 1 / 60 + 1e-9;
  let from = 0;
  for (let i = 1; i < route.length; i++) {
    if (i < route.length - 1 && !stops[i]) continue;
    // Positions from+1 .. i-1 are one trip, leaving position `from`.
    let latest = 0;
    for (let k = from + 1; k < i; k++) latest = Math.max(latest, release?.[route[k]!] ?? 0);
    const leave = minutesOf(times[from]![1]!, base);
    expect(leave, `${label} trip leaving position ${from} before its goods are released`).to.be.at.least(latest - slack);
    if (from > 0) {
      const open = request.node_time_windows?.[route[from]!]?.[0] ?? 0;
      expect(leave, `${label} leaves reload stop at position ${from} before it opens`).to.be.at.least(open - slack);
      expect(leave, `${label} leaves reload stop at position ${from} before arriving`).to.be.at.least(
        minutesOf(times[from]![0]!, base) - slack,
      );
    }
    from = i;
  }
}
