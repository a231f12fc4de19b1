import type { SolveRequest } from "./types.js";

export interface ServiceConstraintOptions {
  /** About a quarter of the customers optional, each with a skip penalty. */
  optional?: boolean;
  /** A fifth of the customers need "refrigerated", a tenth "tail-lift"; vehicles have one or the other or none. */
  skills?: boolean;
  /** Early and late shifts (needs the time dimension: ignored without windows). */
  shifts?: boolean;
}

const DAY_MINUTES = 720;

/**
 * Optional stops, skills and shifts on a generated problem (the fields of constraints.md), built to
 * stay solvable: every skill is carried by at least one vehicle of every depot, shifts overlap in
 * the middle of the day and each lasts at least 7 hours, and skip penalties are worth about a
 * round trip from the nearest depot (so some optional customers are served and some are not).
 */
export function addServiceConstraints(request: SolveRequest, options: ServiceConstraintOptions, rand: () => number, depots: number): void {
  const n = request.node_num;
  const m = request.vehicle_num;
  const positions = request.node_positions ?? [];
  if (options.optional) {
    request.node_skip_penalties = positions.map((p, i) => {
      if (i < depots || rand() >= 0.25) return null;
      let nearest = Infinity;
      for (let d = 0; d < depots; d++) nearest = Math.min(nearest, Math.hypot(p[0] - positions[d]![0], p[1] - positions[d]![1]));
      return Math.round(2 * nearest * (0.5 + rand()));
    });
  }
  if (options.skills) {
    // A tail lift only where every depot has a second vehicle to carry it.
    const tailLift = m >= 2 * depots;
    request.node_skills = Array.from({ length: n }, (_, i) => {
      if (i < depots) return null;
      const r = rand();
      return r < 0.2 ? ["refrigerated"] : r < 0.3 && tailLift ? ["tail-lift"] : null;
    });
    // Round-robin over depots (vehicle v starts at depot v % depots): every depot's first vehicle
    // is refrigerated, its second has a tail lift, then every third vehicle of each kind.
    request.vehicle_skills = Array.from({ length: m }, (_, v) => {
      const k = Math.floor(v / depots);
      return k % 3 === 0 ? ["refrigerated"] : k % 3 === 1 ? ["tail-lift"] : [];
    });
  }
  if (options.shifts && Array.isArray(request.node_time_windows)) {
    request.vehicle_time_windows = Array.from({ length: m }, (_, v) =>
      v % 2 === 0 ? [0, 480 + Math.floor(rand() * 60)] : [180 + Math.floor(rand() * 60), DAY_MINUTES],
    );
  }
  request.name =
    `${request.name ?? "Random"}${options.optional ? ", optional stops" : ""}` +
    `${options.skills ? ", skills" : ""}` +
    `${options.shifts && request.vehicle_time_windows ? ", shifts" : ""}`;
}
