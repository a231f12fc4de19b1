import { Counter, Gauge, type Registry } from "prom-client";

/** Why an offered item's answer was not merged. */
export type DropReason = "late" | "stale" | "not_better" | "unsent";

/**
 * Cooperative solves: items this worker offered as owner and what became of them, items it took
 * as helper, and whether it is busy owning a task or helping another worker's.
 */
export function createHelpMetrics(registry: Registry, ownedTasks: () => Promise<number>) {
  let helping = 0;
  new Gauge({
    name: "vrp_busy_workers",
    help: "1 while this worker is busy solving a task of its own (owning) or an item of another worker's task (helping).",
    labelNames: ["role"] as const,
    registers: [registry],
    async collect() {
      this.set({ role: "owning" }, Math.min(1, await ownedTasks()));
      this.set({ role: "helping" }, helping);
    },
  });
  return {
    offered: new Counter({
      name: "vrp_help_items_offered_total",
      help: "Items this worker's cooperative solves offered to other workers.",
      registers: [registry],
    }),
    taken: new Counter({
      name: "vrp_help_items_taken_total",
      help: "Items of other workers' tasks this worker took and searched.",
      registers: [registry],
    }),
    merged: new Counter({
      name: "vrp_help_items_merged_total",
      help: "Answers to this worker's items that improved the whole plan and were merged into it.",
      registers: [registry],
    }),
    dropped: new Counter({
      name: "vrp_help_items_dropped_total",
      help:
        "This worker's items not merged: no answer by the item's deadline (late), routes changed meanwhile (stale), " +
        "no better (not_better), not published (unsent).",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
    setHelping(on: boolean): void {
      helping = on ? 1 : 0;
    },
  };
}
export type HelpMetrics = ReturnType<typeof createHelpMetrics>;
