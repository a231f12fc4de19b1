import type { KV } from "@nats-io/kv";
import { chargeAll, EMPTY_SCHEDULE, type Charge, type Schedule } from "./fair-share.js";

const KEY = "schedule";

export interface StoredSchedule {
  schedule: Schedule;
  revision: number;
}
/** Compare-and-set attempts before a charge is given up (it only shifts the order a little). */
const CAS_ATTEMPTS = 8;

/**
 * The scheduler's state, shared by every worker through one KV key: each worker reads it to
 * choose a flow and charges the flow it took a task from with a compare-and-set, so concurrent
 * workers never lose a charge.
 */
export class FairScheduleStore {
  constructor(private readonly kv: KV) {}

  async read(): Promise<StoredSchedule> {
    const entry = await this.kv.get(KEY);
    if (!entry || entry.operation !== "PUT" || entry.length === 0) return { schedule: EMPTY_SCHEDULE, revision: 0 };
    return { schedule: entry.json<Schedule>(), revision: entry.revision };
  }

  /** Advances the flow's pass by one task; resolves with the state written, or null if it could not be. */
  charge(key: string, weight: number, known?: StoredSchedule): Promise<StoredSchedule | null> {
    return this.chargeAll([{ key, weight }], known);
  }

  /** Advances the passes by the tasks of `charges`, in one write; resolves as `charge`. */
  async chargeAll(charges: readonly Charge[], known?: StoredSchedule): Promise<StoredSchedule | null> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      // The state the choice was made from is tried first: usually nobody changed it since.
      const { schedule, revision } = attempt === 0 && known ? known : await this.read();
      const next = chargeAll(schedule, charges);
      const text = JSON.stringify(next);
      try {
        const written = revision === 0 ? await this.kv.create(KEY, text) : await this.kv.update(KEY, text, revision);
        return { schedule: next, revision: written };
      } catch (err) {
        if (!/wrong last sequence|key exists/i.test(err instanceof Error ? err.message : String(err))) throw err;
      }
    }
    return null;
  }
}
