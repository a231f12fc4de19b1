import type { components } from "../../generated/api.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";
import { isAllowed, type Distance } from "./service-diagnostics.js";

type Infeasibility = components["schemas"]["Infeasibility"];

const EPS = 1e-9;

/**
 * Customers released too late to be served in their window (hard windows, node_release_times):
 * the trip that serves a customer leaves its depot no earlier than the customer's release time,
 * from the vehicle's start node, or from one of its reload nodes once the vehicle can have driven
 * there. When even the best such departure, driving straight to the customer, arrives after its
 * window closes, no plan serves it. Customers that no vehicle reaches in time regardless of their
 * release are timeReasons' (diagnostics.ts) and are not reported twice.
 */
export function releaseReasons(p: CompiledProblem, dist: Distance): Infeasibility[] {
  const t = p.time;
  const release = p.trips?.release;
  if (!t || !release || t.latePenaltyPerMin > 0) return [];
  const found: Infeasibility[] = [];
  for (const c of p.customers) {
    const r = release[c]!;
    if (r <= 0) continue;
    let best = Number.POSITIVE_INFINITY;
    let bestVehicle = -1;
    let unreleased = Number.POSITIVE_INFINITY;
    for (let v = 0; v < p.vehicleCount; v++) {
      if (!isAllowed(p, v, c)) continue;
      const s = p.startNode[v]!;
      const speed = t.speed[v]!;
      const open = Math.max(t.twStartMin[s]!, p.rules ? p.rules.shiftStartMin[v]! : Number.NEGATIVE_INFINITY);
      unreleased = Math.min(unreleased, open + dist(s, c) / speed);
      let arrive = Math.max(open, r) + dist(s, c) / speed;
      for (const x of p.trips!.reloadNodes[v]!) {
        const leave = Math.max(r, t.twStartMin[x]!, open + dist(s, x) / speed);
        arrive = Math.min(arrive, leave + dist(x, c) / speed);
      }
      if (arrive < best) {
        best = arrive;
        bestVehicle = v;
      }
    }
    const close = t.twEndMin[c]!;
    if (bestVehicle < 0 || best <= close + EPS || unreleased > close + EPS) continue;
    const lateBy = withoutDust(best - close);
    found.push({
      kind: "window_unreachable",
      message:
        `node ${c} is released at ${evidenceNumber(r)} (node_release_times), too late to be served within its time window ` +
        `[${evidenceNumber(t.twStartMin[c]!)}, ${evidenceNumber(close)}] by any vehicle: the earliest arrival, leaving a ` +
        `depot once it is released, is ${evidenceNumber(withoutDust(best))}, ${evidenceNumber(lateBy)} min after the window closes`,
      node: c,
      evidence: {
        window_end: close,
        earliest_arrival: withoutDust(best),
        late_by: lateBy,
        vehicle: `Vehicle ${bestVehicle}`,
        release_time: r,
      },
    });
  }
  return found;
}
