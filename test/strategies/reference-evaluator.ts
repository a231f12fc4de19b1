import type { SolveRequestInput } from "../../src/problem/request-types.js";

/**
 * A deliberately plain re-implementation of decisions.md's scoring, straight from the request
 * (no compiled arrays, no shared code with strategies/core), to check the evaluator against.
 */
export function referenceCost(
  req: SolveRequestInput,
  routes: Record<string, number[]>,
): { cost: number; distance: number; feasible: boolean; lateMinutes: number } {
  const n = req.node_num;
  const pos = req.node_positions ?? [];
  const d = (i: number, j: number) =>
    pos.length === n ? Math.hypot(pos[i]![0]! - pos[j]![0]!, pos[i]![1]! - pos[j]![1]!) : req.distance_matrix[i]![j]!;
  const timeOn = !!(req.node_time_windows && req.node_service_time && req.vehicle_speeds);
  const soft = timeOn && (req.late_penalty_per_min ?? 0) > 0;
  const costMode = req.objective === "min_total_cost";
  let cost = 0;
  let distance = 0;
  let late = 0;
  let feasible = true;
  const visits = new Map<number, number>();
  for (const [label, nodes] of Object.entries(routes)) {
    const v = Number(label.split(" ")[1]);
    let dist = 0;
    let load = 0;
    for (let i = 1; i < nodes.length; i++) dist += d(nodes[i - 1]!, nodes[i]!);
    for (const c of nodes.slice(1, -1)) {
      load += req.node_demands[c]!;
      visits.set(c, (visits.get(c) ?? 0) + 1);
    }
    if (load > req.vehicles_capacity[v]! + 1e-9) feasible = false;
    if (nodes[0] !== req.start_nodes[v] || nodes[nodes.length - 1] !== req.end_nodes[v]) feasible = false;
    let routeLate = 0;
    if (timeOn) {
      const tw = req.node_time_windows!;
      const svc = req.node_service_time!;
      const speed = req.vehicle_speeds![v]!;
      // Try every departure on a fine grid inside the start window: the rule picks the one with
      // the least lateness, then the least waiting; compare lateness and feasibility only.
      const simulate = (dep: number) => {
        let t = dep;
        let lt = 0;
        for (let i = 1; i < nodes.length; i++) {
          const node = nodes[i]!;
          const arrive = t + d(nodes[i - 1]!, node) / speed;
          if (i === nodes.length - 1) {
            lt += Math.max(0, arrive - tw[node]![1]!);
            return { lt, duration: arrive - dep };
          }
          const begin = Math.max(arrive, tw[node]![0]!);
          lt += Math.max(0, begin - tw[node]![1]!);
          t = begin + svc[node]!;
        }
        return { lt, duration: 0 };
      };
      const base = simulate(tw[nodes[0]!]![0]!);
      routeLate = base.lt;
      const hours = req.max_working_hours;
      let bestDuration = base.duration;
      for (let dep = tw[nodes[0]!]![0]!; dep <= tw[nodes[0]!]![1]!; dep += 0.25) {
        const r = simulate(dep);
        if (r.lt <= base.lt + 1e-6) bestDuration = Math.min(bestDuration, r.duration);
      }
      if (!soft && routeLate > 1e-6) feasible = false;
      if (typeof hours === "number" && bestDuration > hours * 60 + 0.3) feasible = false;
    }
    late += routeLate;
    distance += dist;
    const fixed = costMode ? (req.vehicle_fixed_costs?.[v] ?? 0) : 0;
    const unit = costMode ? (req.vehicle_unit_distance_costs?.[v] ?? 1) : 1;
    cost += fixed + unit * dist + (soft ? routeLate * req.late_penalty_per_min! : 0);
  }
  for (let c = 0; c < n; c++) {
    const depot = req.start_nodes.includes(c) || req.end_nodes.includes(c);
    if (!depot && visits.get(c) !== 1) feasible = false;
  }
  return { cost, distance, feasible, lateMinutes: late };
}
