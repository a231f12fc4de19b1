import { Gauge, Histogram, type Registry } from "prom-client";
import type { Plan } from "../config/plans.js";
import type { FlowState } from "../queue/flows.js";

/**
 * Per plan, never per account (a bounded label set): tasks queued and solving from the flows'
 * consumers (the same figures from every worker: aggregate with max, not sum), and the wait from
 * submit to the start of its first solve, observed by the worker that took it.
 */
export function createFairShareMetrics(
  registry: Registry,
  flows: () => Promise<readonly FlowState[]>,
  plans: Iterable<Pick<Plan, "name" | "waitTargetSeconds">>,
) {
  const target = new Gauge({
    name: "vrp_plan_wait_target_seconds",
    help: "The p95 wait from submit to solve start each plan is meant to keep (wait_target_seconds).",
    labelNames: ["plan"] as const,
    registers: [registry],
  });
  for (const plan of plans) target.set({ plan: plan.name }, plan.waitTargetSeconds);
  new Gauge({
    name: "vrp_plan_tasks",
    help: "Tasks of all accounts on a plan, by state (queued, solving), as the task stream's consumers count them.",
    labelNames: ["plan", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const listed = await flows().catch(() => null);
      if (!listed) return;
      const totals = new Map<string, { queued: number; solving: number }>();
      for (const flow of listed) {
        const t = totals.get(flow.plan) ?? { queued: 0, solving: 0 };
        t.queued += flow.pending;
        t.solving += flow.ackPending;
        totals.set(flow.plan, t);
      }
      for (const [plan, t] of totals) {
        this.set({ plan, state: "queued" }, t.queued);
        this.set({ plan, state: "solving" }, t.solving);
      }
    },
  });
  return {
    planWait: new Histogram({
      name: "vrp_plan_wait_seconds",
      help: "Time from a task's submission until a worker took it for its first solve, by the account's plan.",
      labelNames: ["plan"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
      registers: [registry],
    }),
  };
}
export type FairShareMetrics = ReturnType<typeof createFairShareMetrics>;
