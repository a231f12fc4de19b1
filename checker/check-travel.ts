import { expect } from "chai";

/** The request fields this checker reads: the seed's and constraints.md's third table. */
export interface TravelRequest {
  node_num: number;
  vehicle_num: number;
  objective?: string;
  node_positions?: number[][];
  distance_matrix: number[][];
  start_nodes: number[];
  end_nodes: number[];
  node_demands: number[];
  vehicles_capacity: number[];
  vehicle_fixed_costs?: number[];
  vehicle_unit_distance_costs?: number[];
  node_time_windows?: number[][];
  node_service_time?: number[];
  vehicle_speeds?: number[];
  base_start_time?: number[];
  duration_matrix?: number[][];
  profiles?: Record<string, { distance_matrix?: number[][]; duration_matrix?: number[][] }>;
  vehicle_profiles?: (string | null)[];
  vehicle_unit_time_costs?: number[];
  node_time_window_sets?: (number[][] | null)[];
  vehicle_breaks?: ({ earliest_start: number; latest_start: number; duration: number }[] | null)[];
  vehicle_return_to_end?: boolean[];
  time_dependent_durations?: { start: number; factor: number }[];
}

export interface TravelResult {
  total_cost: number;
  routes: Record<string, number[]>;
  distances: number[];
  time_windows?: Record<string, string[][]>;
  breaks?: Record<string, { start: string; end: string; after_node: number }[]>;
  route_details?: Record<
    string,
    { cost: number; duration_minutes: number | null; time_cost?: number; break_minutes?: number; driving_minutes?: number | null }
  >;
}

/** Clock times are rounded to the second. */
const SLACK = 1 / 60 + 1e-9;

/**
 * An independent, deliberately naive check of a result of a request with hard windows and the
 * travel fields, from the answer alone: every customer once, routes from the start node to the
 * end node (or ending at the last customer on an open route), capacities, distances on each
 * vehicle's network, every arrival = leave + breaks + the vehicle's travel minutes, service in the
 * earliest window it can reach, every break once inside its window at a stop, the end node in
 * time, durations, time costs and total_cost recomputed.
 */
export function checkTravelResult(req: TravelRequest, result: TravelResult): void {
  const n = req.node_num;
  const base = req.base_start_time ?? [9, 0, 0];
  const minutes = (clock: string) => {
    const [h, m, s] = clock.split(":").map(Number) as [number, number, number];
    return (h * 3600 + m * 60 + s - (base[0]! * 3600 + (base[1] ?? 0) * 60 + (base[2] ?? 0))) / 60;
  };
  const profileOf = (v: number) => {
    const name = req.vehicle_profiles?.[v];
    return name ? req.profiles![name]! : {};
  };
  const dist = (v: number, i: number, j: number) => {
    const own = profileOf(v).distance_matrix;
    if (own) return own[i]![j]!;
    const pos = req.node_positions;
    if (pos && pos.length === n) return Math.hypot(pos[i]![0]! - pos[j]![0]!, pos[i]![1]! - pos[j]![1]!);
    return req.distance_matrix[i]![j]!;
  };
  const travel = (v: number, i: number, j: number) => {
    const own = profileOf(v).duration_matrix ?? req.duration_matrix;
    return own ? own[i]![j]! : dist(v, i, j) / req.vehicle_speeds![v]!;
  };
  // Traffic, checked through progress: base minutes driven by clock t are the integral of 1 / factor
  // up to t, and a leg arrives when that progress has grown by its base minutes.
  const slots = req.time_dependent_durations ?? [{ start: 0, factor: 1 }];
  const progressAt = (t: number) => {
    let done = t < 0 ? t / slots[0]!.factor : 0;
    slots.forEach((slot, k) => {
      const until = Math.min(t, slots[k + 1]?.start ?? Number.POSITIVE_INFINITY);
      if (until > slot.start) done += (until - slot.start) / slot.factor;
    });
    return done;
  };
  const clockAt = (progress: number) => {
    if (progress < 0) return progress * slots[0]!.factor;
    let done = 0;
    for (let k = 0; ; k++) {
      const slot = slots[k]!;
      const span = k + 1 < slots.length ? (slots[k + 1]!.start - slot.start) / slot.factor : Number.POSITIVE_INFINITY;
      if (done + span >= progress) return slot.start + (progress - done) * slot.factor;
      done += span;
    }
  };
  const drive = (v: number, i: number, j: number, leave: number) => clockAt(progressAt(leave) + travel(v, i, j));
  // A clock rounded to the second moves an arrival by up to the slowest slot's pace over the fastest's.
  const paces = slots.map((s) => s.factor);
  const stretch = Math.max(...paces) / Math.min(...paces);
  const windowsOf = (node: number) => req.node_time_window_sets?.[node] ?? [req.node_time_windows![node]!];
  const cost = req.objective === "min_total_cost";
  const seen = new Map<number, number>();
  let total = 0;
  Object.keys(result.routes).forEach((label, k) => {
    const v = Number(/^Vehicle (\d+)$/.exec(label)![1]);
    const route = result.routes[label]!;
    const open = req.vehicle_return_to_end?.[v] === false;
    expect(route[0], `${label} starts at its start node`).to.equal(req.start_nodes[v]);
    const customers = open ? route.slice(1) : route.slice(1, -1);
    if (!open) expect(route[route.length - 1], `${label} ends at its end node`).to.equal(req.end_nodes[v]);
    let load = 0;
    for (const c of customers) {
      seen.set(c, (seen.get(c) ?? 0) + 1);
      load += req.node_demands[c]!;
    }
    expect(load, `${label} load`).to.be.at.most(req.vehicles_capacity[v]!);
    let distance = 0;
    for (let i = 1; i < route.length; i++) distance += dist(v, route[i - 1]!, route[i]!);
    expect(result.distances[k], `${label} distance`).to.be.closeTo(distance, 1e-6 * Math.max(1, distance));
    let routeCost = cost ? (req.vehicle_fixed_costs?.[v] ?? 0) + (req.vehicle_unit_distance_costs?.[v] ?? 1) * distance : distance;
    const times = result.time_windows?.[label];
    if (times && req.node_time_windows)
      routeCost += checkTimes(
        label,
        v,
        route,
        open,
        times.map(([a, l]) => [minutes(a!), minutes(l!)]),
      );
    expect(result.route_details?.[label]?.cost ?? routeCost, `${label} cost`).to.be.closeTo(routeCost, 1e-6 * Math.max(1, routeCost));
    total += routeCost;
  });
  for (let c = 0; c < n; c++) {
    if (req.start_nodes.includes(c) || req.end_nodes.includes(c)) continue;
    expect(seen.get(c) ?? 0, `customer ${c} visited exactly once`).to.equal(1);
  }
  expect(result.total_cost, "total_cost").to.be.closeTo(total, 1e-6 * Math.max(1, total));

  /** The schedule of one route; returns its time cost. */
  function checkTimes(label: string, v: number, route: number[], open: boolean, times: number[][]): number {
    const placed = result.breaks?.[label] ?? [];
    const wanted = [...(req.vehicle_breaks?.[v] ?? [])].sort((a, b) => a.earliest_start - b.earliest_start);
    expect(placed.length, `${label} takes each of its breaks once`).to.equal(wanted.length);
    placed.forEach((b, i) => {
      const [start, end] = [minutes(b.start), minutes(b.end)];
      expect(start, `${label} break ${i} start`).to.be.within(wanted[i]!.earliest_start - SLACK, wanted[i]!.latest_start + SLACK);
      expect(end - start, `${label} break ${i} duration`).to.be.closeTo(wanted[i]!.duration, 2 * SLACK);
    });
    let next = 0;
    let breakMinutes = 0;
    // Breaks after position i, in the order taken: from its leave time on.
    const after = (i: number, leave: number): number => {
      let ready = leave;
      while (next < placed.length && placed[next]!.after_node === route[i]) {
        const [start, end] = [minutes(placed[next]!.start), minutes(placed[next]!.end)];
        expect(start, `${label} break ${next} starts after node ${route[i]} is left`).to.be.at.least(ready - SLACK);
        breakMinutes += end - start;
        ready = end;
        next++;
      }
      return ready;
    };
    let ready = after(0, times[0]![1]!);
    let driving = 0;
    for (let i = 1; i < route.length; i++) {
      const node = route[i]!;
      const [arrive, leave] = times[i]! as [number, number];
      driving += arrive - ready;
      expect(arrive, `${label} arrival at node ${node}`).to.be.closeTo(drive(v, route[i - 1]!, node, ready), 2 * stretch * SLACK);
      const isEnd = !open && i === route.length - 1;
      if (isEnd) {
        expect(arrive, `${label} back at node ${node} in time`).to.be.at.most(req.node_time_windows![node]![1]! + SLACK);
        ready = arrive;
        break;
      }
      const begin = leave - req.node_service_time![node]!;
      const reachable = windowsOf(node).find((w) => arrive <= w[1]! + SLACK);
      expect(reachable, `${label} reaches a window of node ${node}`).to.not.equal(undefined);
      expect(begin, `${label} serves node ${node} in the earliest window it reaches`).to.be.closeTo(
        Math.max(arrive, reachable![0]!),
        2 * SLACK,
      );
      ready = after(i, leave);
    }
    expect(next, `${label} breaks taken at stops of the route, in order`).to.equal(placed.length);
    const duration = ready - times[0]![1]!;
    const details = result.route_details?.[label];
    if (details?.duration_minutes != null) expect(details.duration_minutes, `${label} duration`).to.be.closeTo(duration, 3 * SLACK);
    if (details?.driving_minutes != null)
      expect(details.driving_minutes, `${label} driving minutes`).to.be.closeTo(driving, 2 * stretch * SLACK * route.length);
    if (wanted.length > 0) expect(details?.break_minutes, `${label} break minutes`).to.be.closeTo(breakMinutes, 3 * SLACK);
    const perHour = req.objective === "min_total_cost" ? (req.vehicle_unit_time_costs?.[v] ?? 0) : 0;
    if (req.vehicle_unit_time_costs && perHour >= 0 && req.objective === "min_total_cost")
      expect(details?.time_cost, `${label} time cost`).to.be.closeTo((perHour * duration) / 60, perHour * SLACK + 1e-6);
    return (perHour * (details?.duration_minutes ?? duration)) / 60;
  }
}
