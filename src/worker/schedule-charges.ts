import type { Logger } from "../log/logger.js";
import type { FairScheduleStore, StoredSchedule } from "../queue/fair-schedule-store.js";
import { chargeAll, EMPTY_SCHEDULE, type Charge, type Schedule } from "../queue/fair-share.js";

/**
 * How long charges may wait to be written together. A burst of tiny tasks then costs one
 * compare-and-set per this interval rather than one per task; a charge after a quieter spell (a
 * long task's) is written at once. Other workers see this worker's latest takes this much later
 * at most, which only shifts the order within the interval: no charge is lost while the worker runs.
 */
export const CHARGE_WRITE_MS = 50;

/** The shared schedule as this worker last read or wrote it stands this long (a stale one only fails a compare-and-set). */
const OWN_SCHEDULE_MS = 100;

/**
 * One worker's side of the shared schedule (FairScheduleStore): the state it last read or wrote,
 * and the charges of the tasks it took since, written in batches. Its choices see its own charges
 * at once, written or not. A worker that crashes loses at most the charges of its last interval:
 * the order shifts a little, no task is affected.
 */
export class ScheduleCharges {
  private base: { stored: StoredSchedule; at: number } | null = null;
  /** The last state known, kept while the store cannot be read. */
  private last: StoredSchedule | null = null;
  /** Charges not yet written, and those of the write under way. */
  private pending: Charge[] = [];
  private inFlight: Charge[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastWrite = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: FairScheduleStore,
    private readonly log: Logger,
    private readonly writeEveryMs = CHARGE_WRITE_MS,
  ) {}

  /** Charges `count` tasks taken at once from the flow; written at once unless a write went out within the interval. */
  add(key: string, weight: number, count = 1): void {
    this.pending.push({ key, weight, count });
    this.plan();
  }

  /**
   * The schedule with this worker's charges applied, if the state under it was read or written
   * within `maxAgeMs`; null otherwise (the caller reads the store and passes the result to `seen`).
   */
  fresh(maxAgeMs: number): StoredSchedule | null {
    if (!this.base || Date.now() - this.base.at >= maxAgeMs) return null;
    return this.over(this.base.stored);
  }

  /** A state read from the store: it replaces the one under this worker's charges unless older. */
  seen(stored: StoredSchedule): StoredSchedule {
    if (!this.base || stored.revision > this.base.stored.revision) this.base = { stored, at: Date.now() };
    this.last = this.base.stored;
    return this.over(stored);
  }

  /**
   * The schedule a choice orders the flows by: this worker's own while fresh, else the store's,
   * both with this worker's charges applied; without `needed` (one flow or none to order) the
   * store is not read. While it cannot be (its bucket failing over) the last state known serves,
   * so tasks keep starting.
   */
  async forChoice(needed: boolean): Promise<Schedule> {
    const own = this.fresh(OWN_SCHEDULE_MS);
    if (own) return own.schedule;
    if (!needed) return EMPTY_SCHEDULE;
    try {
      return this.seen(await this.store.read()).schedule;
    } catch (err) {
      if (!this.last) throw err;
      return this.over(this.last).schedule;
    }
  }

  /** Resolves once the write under way (if any) is done, so a choice sees its outcome. */
  async settled(): Promise<void> {
    await this.writing;
  }

  /** Writes what is pending now (on stop); resolves when written or given up. */
  async flush(): Promise<void> {
    await this.writing;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length > 0) await this.write();
  }

  /** Charges taken and not yet written (tests). */
  unwritten(): number {
    return this.pending.length + this.inFlight.length;
  }

  private over(stored: StoredSchedule): StoredSchedule {
    const charges = [...this.inFlight, ...this.pending];
    const schedule: Schedule = charges.length > 0 ? chargeAll(stored.schedule, charges) : stored.schedule;
    return { schedule, revision: stored.revision };
  }

  private plan(): void {
    if (this.writing || this.timer || this.pending.length === 0) return;
    const wait = this.lastWrite + this.writeEveryMs - Date.now();
    if (wait <= 0) {
      void this.write();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.plan();
    }, wait);
    this.timer.unref();
  }

  private write(): Promise<void> {
    this.lastWrite = Date.now();
    this.inFlight = this.pending;
    this.pending = [];
    const known = this.base?.stored;
    const writing = this.store
      .chargeAll(this.inFlight, known)
      .then(
        (stored) => {
          const written = this.inFlight.length;
          this.inFlight = [];
          if (stored && (!this.base || stored.revision >= this.base.stored.revision)) this.base = { stored, at: Date.now() };
          if (stored) this.last = stored;
          if (!stored) this.log.warn("fair-share charges not written: too many concurrent writers", { charges: written });
        },
        (err: unknown) => {
          const written = this.inFlight.length;
          this.inFlight = [];
          this.base = null;
          this.log.warn("fair-share charges not written", { err, charges: written });
        },
      )
      .finally(() => {
        this.writing = null;
        this.plan();
      });
    this.writing = writing;
    return writing;
  }
}
