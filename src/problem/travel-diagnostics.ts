import type { components } from "../../generated/api.js";
import { arrivalClose, departureOpen } from "../../strategies/core/evaluate-rules.js";
import { hasBreaks, type CompiledProblem } from "../../strategies/core/problem.js";
import { returnsToEnd } from "../../strategies/core/travel.js";
import { evidenceNumber, withoutDust } from "./message-numbers.js";

type Infeasibility = components["schemas"]["Infeasibility"];

const EPS = 1e-9;

/**
 * Vehicles whose breaks cannot all be taken within their shift, even on a route that goes
 * nowhere (each break as early as its window and the previous one allow): such a vehicle cannot
 * be used. That rules out the problem only when it holds for every vehicle and some customer must
 * be served; otherwise it is reported with `may_be_unassigned` (it leaves out a vehicle, not a
 * customer that another vehicle may serve).
 */
export function breakReasons(p: CompiledProblem): Infeasibility[] {
  const tr = p.travel;
  if (!tr || !p.time || !hasBreaks(p)) return [];
  const found: Infeasibility[] = [];
  let unusable = 0;
  for (let v = 0; v < p.vehicleCount; v++) {
    const breaks = tr.breaks[v]!;
    if (breaks.length === 0) continue;
    const open = departureOpen(p, v);
    const close = returnsToEnd(p, v) ? arrivalClose(p, v) : Number.POSITIVE_INFINITY;
    let clock = open;
    let fits = true;
    let total = 0;
    for (const b of breaks) {
      const start = Math.max(clock, b.earliest);
      total += b.duration;
      if (start > b.latest + EPS) fits = false;
      clock = start + b.duration;
    }
    if (clock > close + EPS) fits = false;
    if (fits) continue;
    unusable++;
    found.push({
      kind: "breaks_exceed_shift",
      message:
        `vehicle ${v}'s breaks (${breaks.length}, ${evidenceNumber(withoutDust(total))} min in all) cannot all be taken ` +
        `within its shift [${evidenceNumber(open)}, ${evidenceNumber(close)}]: the vehicle cannot be used`,
      evidence: {
        vehicle: `Vehicle ${v}`,
        break_minutes: withoutDust(total),
        shift_start: open,
        ...(Number.isFinite(close) ? { shift_end: close } : {}),
      },
    });
  }
  const mustServe = p.customers.some((c) => !p.rules || (!p.rules.allowUnassigned && !Number.isFinite(p.rules.skipPenalty[c]!)));
  if (unusable === p.vehicleCount && mustServe) return found;
  return found.map((i) => ({ ...i, may_be_unassigned: true as const }));
}
