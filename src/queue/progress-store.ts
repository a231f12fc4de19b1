import type { KV } from "@nats-io/kv";
import type { components } from "../../generated/api.js";

export type SolveProgress = Omit<components["schemas"]["SolveProgress"], "best">;
export type SolvedResultBody = components["schemas"]["SolvedResult"];

/** What the worker keeps about a solving task: its latest progress and best solution so far. */
export interface ProgressEntry {
  progress: SolveProgress;
  best: SolvedResultBody | null;
}

/** Best solutions above this size are not stored (a KV value must fit one NATS message). */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The progress bucket: written by the worker at most once a second, read by any API instance. */
export class ProgressStore {
  constructor(private readonly kv: KV) {}

  async put(taskId: string, entry: ProgressEntry): Promise<void> {
    let bytes = encoder.encode(JSON.stringify(entry));
    if (bytes.length > MAX_ENTRY_BYTES) bytes = encoder.encode(JSON.stringify({ ...entry, best: null }));
    await this.kv.put(taskId, bytes);
  }

  async get(taskId: string): Promise<ProgressEntry | null> {
    const entry = await this.kv.get(taskId);
    if (!entry || entry.operation !== "PUT" || entry.length === 0) return null;
    return JSON.parse(decoder.decode(entry.value)) as ProgressEntry;
  }

  async remove(taskId: string): Promise<void> {
    await this.kv.purge(taskId);
  }
}

/** The progress of a task that has just started solving. */
export function initialProgress(timeLimitSeconds: number, strategy: string | null): SolveProgress {
  return {
    elapsed_seconds: 0,
    time_limit_seconds: timeLimitSeconds,
    feasible: false,
    best_cost: null,
    improvements: 0,
    iterations: 0,
    strategy,
  };
}
