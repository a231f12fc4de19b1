import { expect } from "chai";

/** The balance field as the checker reads it. */
export interface BalanceFieldsOfRequest {
  balance?: { measure: "duration" | "stops" | "distance"; cost_per_unit: number } | null;
  base_start_time?: number[];
  vehicle_reload_nodes?: (number[] | null)[] | null;
}

interface BalanceResult {
  routes: Record<string, number[]>;
  time_windows?: Record<string, string[][]>;
  route_details?: Record<string, { cost: number; balance_measure?: number }>;
  balance_cost?: number;
}

/** Seconds after midnight of an HH:MM:SS clock time (hours may pass 23). */
function secondsOf(clock: string): number {
  const [h, m, s] = clock.split(":").map(Number) as [number, number, number];
  return h * 3600 + m * 60 + s;
}

/**
 * An independent check of balanced workloads: each used route's workload recomputed from the
 * request and the result's own routes (its customers without reload stops, the distance the
 * caller measured, or its working minutes read off `time_windows`: leaving the start node to
 * reaching the end node, to the second), each in `route_details[*].balance_measure`, and
 * `balance_cost` = cost_per_unit x the largest; both absent without balance. Returns the term,
 * which `total_cost` includes.
 */
export function balanceCheck(request: BalanceFieldsOfRequest, result: BalanceResult, distances: Record<string, number>): number {
  const balance = request.balance ?? null;
  expect(result.balance_cost !== undefined, "balance_cost present exactly with balance").to.equal(balance !== null);
  if (!balance) {
    for (const [label, detail] of Object.entries(result.route_details ?? {}))
      expect(detail.balance_measure, `${label} has no balance_measure without balance`).to.equal(undefined);
    return 0;
  }
  let largest = 0;
  for (const [label, route] of Object.entries(result.routes)) {
    const v = Number(/^Vehicle (\d+)$/.exec(label)![1]);
    const reload = new Set(request.vehicle_reload_nodes?.[v] ?? []);
    let workload: number;
    let tolerance = 1e-6 * Math.max(1, distances[label]!);
    if (balance.measure === "stops") workload = route.slice(1, -1).filter((node) => !reload.has(node)).length;
    else if (balance.measure === "distance") workload = distances[label]!;
    else {
      const times = result.time_windows?.[label];
      expect(times, `${label} has times for its working minutes`).to.be.an("array");
      workload = (secondsOf(times![times!.length - 1]![0]!) - secondsOf(times![0]![1]!)) / 60;
      // The clock times are rounded to the second, at both ends.
      tolerance = 2 / 60;
    }
    const reported = result.route_details?.[label]?.balance_measure;
    expect(reported, `${label} balance_measure`).to.be.a("number");
    expect(reported!, `${label} balance_measure (${balance.measure})`).to.be.closeTo(workload, tolerance);
    largest = Math.max(largest, reported!);
  }
  const term = balance.cost_per_unit * largest;
  expect(result.balance_cost!, "balance_cost = cost_per_unit x the largest workload").to.be.closeTo(term, 1e-6 * Math.max(1, term));
  return result.balance_cost!;
}
