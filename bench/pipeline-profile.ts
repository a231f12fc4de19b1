import { readFileSync } from "node:fs";

/** The order in which a tiny task's stages happen (parallel ones next to each other). */
const ORDER = [
  "c.submit",
  "api.received",
  "api.handler",
  "api.authenticated",
  "api.rate",
  "api.validated",
  "api.quota",
  "api.depth",
  "api.body",
  "api.publish",
  "api.queuedEvent",
  "api.written",
  "w.delivered",
  "api.committed",
  "api.history",
  "api.done",
  "api.sent",
  "c.answer",
  "w.admitted",
  "w.movedToSolving",
  "w.bodyRead",
  "w.solved",
  "w.stored",
  "c.lastPoll",
  "p.handler",
  "p.read",
  "p.sent",
  "c.seen",
  "w.tail.before",
  "w.tail.historyAndFinalEvent",
  "w.tail.callback",
  "w.tail.acked",
];

interface Line {
  task: string;
  stage: string;
  at: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)]!;
};

/**
 * The profile of `tasks` (request ids) from the stage timestamps in `file` (PIPELINE_PROFILE_FILE,
 * see src/infra/stage-profile.ts): per stage, the median time since the client started the
 * submit, and the median step from the stage before it in ORDER (both in ms).
 */
export function profileTable(file: string, tasks: readonly string[]): string {
  const wanted = new Set(tasks);
  const byTask = new Map<string, Map<string, number>>();
  for (const raw of readFileSync(file, "utf8").split("\n")) {
    if (!raw) continue;
    const line = JSON.parse(raw) as Line;
    if (!wanted.has(line.task)) continue;
    const stages = byTask.get(line.task) ?? new Map<string, number>();
    // The first time a stage is reached (a retried read logs again); a poll's stages (p.) from
    // the last poll, the one that saw the result.
    if (!stages.has(line.stage) || line.stage.startsWith("p.")) stages.set(line.stage, line.at);
    byTask.set(line.task, stages);
  }
  const rows = ["| stage | since submit start, p50 ms | step from the previous stage, p50 ms | tasks |", "|---|---:|---:|---:|"];
  for (let k = 1; k < ORDER.length; k++) {
    const stage = ORDER[k]!;
    const since: number[] = [];
    const step: number[] = [];
    for (const stages of byTask.values()) {
      const t0 = stages.get("c.submit");
      const at = stages.get(stage);
      if (t0 === undefined || at === undefined) continue;
      since.push(at - t0);
      const previous = ORDER.slice(0, k)
        .reverse()
        .find((p) => stages.has(p));
      if (previous) step.push(at - stages.get(previous)!);
    }
    if (since.length > 0) rows.push(`| ${stage} | ${median(since).toFixed(2)} | ${median(step).toFixed(2)} | ${since.length} |`);
  }
  return rows.join("\n");
}
