import { taskEnvelope } from "../api/task-view.js";
import { withProgress } from "../api/progress-view.js";
import type { Logger } from "../log/logger.js";
import { initialProgress, type ProgressStore, type SolvedResultBody } from "../queue/progress-store.js";
import type { StoredTaskEvent, TaskEvents } from "../queue/task-events.js";
import type { TaskRecord } from "../queue/task-store.js";
import type { ProgressReport } from "./progress-reporter.js";

/**
 * The worker's side of a solving task's progress: each report from the solver thread becomes the
 * task's entry in the progress bucket (with the best solution so far) and a `progress` event.
 * Writes run one after another, so the log never shows an older report after a newer one, and
 * `flush` lets the final event wait for the last report.
 */
export class TaskProgress {
  private chain: Promise<void> = Promise.resolve();
  private best: SolvedResultBody | null = null;
  /**
   * Whether an entry may exist: this attempt reset one or stored a report, or an earlier delivery
   * may have left one. A task's first delivery that ends before its first report has none, and
   * its `finish` sends nothing (one NATS message less per tiny task).
   */
  private entryWritten: boolean;

  constructor(
    private readonly task: TaskRecord,
    private readonly store: ProgressStore,
    private readonly events: TaskEvents,
    private readonly log: Logger,
    /** The task's first delivery: no earlier attempt can have left an entry. */
    firstDelivery = false,
  ) {
    this.entryWritten = !firstDelivery;
  }

  /** Resets the entry (a redelivered task may have one from the crashed attempt) before solving starts. */
  async reset(): Promise<void> {
    this.entryWritten = true;
    await this.store.put(this.task.id, { progress: initialProgress(this.task.timeLimitSeconds, this.task.strategy), best: null });
  }

  /** Logs the `solving` event of the record that has just moved to solving. */
  async solvingStarted(solving: TaskRecord): Promise<void> {
    const { event, data } = this.solvingEvent(solving);
    await this.events.publish(solving.id, event, data);
  }

  /** The `solving` event of a record in (or having passed through) the solving state. */
  solvingEvent(solving: TaskRecord): StoredTaskEvent {
    return { event: "solving", data: withProgress(taskEnvelope({ ...solving, state: "solving" }, null), solving, null, false) };
  }

  report(report: ProgressReport): void {
    if (report.best) this.best = report.best;
    const progress = {
      elapsed_seconds: report.elapsedSeconds,
      time_limit_seconds: this.task.timeLimitSeconds,
      feasible: report.feasible,
      best_cost: report.bestCost,
      improvements: report.improvements,
      iterations: report.iterations,
      strategy: report.strategy,
    };
    const solving: TaskRecord = { ...this.task, state: "solving" };
    const best = this.best;
    this.entryWritten = true;
    this.chain = this.chain
      .then(async () => {
        await this.store.put(this.task.id, { progress, best });
        await this.events.publish(
          this.task.id,
          "progress",
          withProgress(taskEnvelope(solving, null), solving, { progress, best: null }, false),
        );
      })
      .catch((err: unknown) => this.log.warn("progress report not stored", { err }));
  }

  /** Waits for the reports in flight, then drops the entry: the task has ended. */
  async finish(): Promise<void> {
    await this.chain;
    if (!this.entryWritten) return;
    await this.store.remove(this.task.id).catch((err: unknown) => this.log.warn("progress entry not removed", { err }));
  }
}
