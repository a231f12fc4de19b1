/**
 * `npm run bench -- pipeline [--sequential N] [--burst N] [--workers W]`: how fast the service's
 * pipeline (API -> JetStream -> worker -> KV -> poll) clears tiny tasks, with the solve itself
 * taken out. A real nats-server, one API instance and W (default 2) workers from dist/ (`make build`).
 *
 * - sequential: N (default 200) 3-customer tasks one after another; per task the time from the
 *   submit's start to the first poll that shows the result (polls back to back), minus the solve
 *   time the result reports (`result.time`). p50 / p95 of that overhead, and of the whole.
 * - burst: N (default 600) such tasks submitted at once (32 lanes), then polled until all are
 *   solved: tasks per second from the first submit to the last result, and none may be missing.
 *
 * With --profile, every process appends stage timestamps (src/infra/stage-profile.ts) and the
 * sequential run's median stage times are printed: where a task's time goes.
 *
 * Every run also prints what each phase cost per task, whatever the machine's load: CPU ms of the
 * API, the workers and nats-server, and the NATS messages the API and the workers sent
 * (bench/pipeline-cost.ts); a third phase polls finished tasks only, to tell a poll's cost from a
 * submit's. With --cpu-prof DIR, the API and workers write V8 CPU profiles (.cpuprofile) to DIR.
 *
 * The account is on the test fixtures' `fuzz` plan (no practical rate limit), so what is measured
 * is the pipeline, not admission control.
 */
import { appendFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startStack } from "../test/helpers/stack.js";
import { profileTable } from "./pipeline-profile.js";
import { COST_HEADER, costRow, costSnapshot, type CostProcesses } from "./pipeline-cost.js";
import { pct, TINY_REQUEST, type Poll } from "./tiny-task.js";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "pipeline"),
  options: {
    sequential: { type: "string", default: "200" },
    burst: { type: "string", default: "600" },
    workers: { type: "string", default: "2" },
    profile: { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
  },
});
const SEQUENTIAL = Number(values.sequential);
const BURST = Number(values.burst);
const WORKERS = Number(values.workers);
const PROFILE_FILE = values.profile ? join(mkdtempSync(join(tmpdir(), "pipeline-profile-")), "stages.jsonl") : null;
const stage = (task: string, name: string, at: number) => {
  if (PROFILE_FILE) appendFileSync(PROFILE_FILE, `${JSON.stringify({ task, stage: name, at: performance.timeOrigin + at })}\n`);
};
const PLANS_FILE = fileURLToPath(new URL("../test/fixtures/plans.json", import.meta.url));

const CPU_PROF_DIR = values["cpu-prof"];
const stack = await startStack({
  workers: WORKERS,
  natsMonitor: true,
  env: {
    LOG_LEVEL: "warn",
    PLANS_FILE,
    BUSY_QUEUE_THRESHOLD: "1000000",
    SELF_CHECK_RESPONSES: "false",
    ...(PROFILE_FILE ? { PIPELINE_PROFILE_FILE: PROFILE_FILE } : {}),
    ...(CPU_PROF_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF_DIR}` } : {}),
  },
});
const processes: CostProcesses = {
  api: stack.api.child.pid!,
  workers: stack.workers.map((w) => w.child.pid!),
  nats: stack.nats.process.pid!,
};
const snapshot = () => costSnapshot(processes, stack.nats.monitorUrl!);
let polls = 0;
try {
  const { headers } = await stack.account("pipeline", "fuzz");
  const h = { ...headers, "content-type": "application/json" };
  const submit = async (): Promise<string> => {
    const res = await fetch(`${stack.baseUrl}/api/v1/solve`, { method: "POST", headers: h, body: TINY_REQUEST });
    const json = (await res.json()) as { request_id: string };
    if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${JSON.stringify(json)}`);
    return json.request_id;
  };
  const poll = async (id: string): Promise<Poll> => {
    polls++;
    const res = await fetch(`${stack.baseUrl}/api/v1/solve/result/${id}`, { headers: h });
    return (await res.json()) as Poll;
  };
  const finished = (p: Poll) => !p.success || p.result?.status === "solved";

  // Warm-up: JIT, connections, the solver threads.
  for (let i = 0; i < 20; i++) {
    const id = await submit();
    while (!finished(await poll(id)));
  }

  // Two idle seconds: what the stack burns with no task (pings, pulls waiting, timers), which a
  // phase's per-task figures include in proportion to its wall time.
  const IDLE_MS = 2000;
  const idleCost = await snapshot();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const seqCost = await snapshot();
  const seqPolls = polls;
  const seqStarted = performance.now();
  const total: number[] = [];
  const overhead: number[] = [];
  const solve: number[] = [];
  const submitMs: number[] = [];
  const pollMs: number[] = [];
  const sequentialIds: string[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t0 = performance.now();
    const id = await submit();
    const answered = performance.now();
    submitMs.push(answered - t0);
    let p: Poll;
    do p = await poll(id);
    while (!finished(p));
    const seen = performance.now();
    const ms = seen - t0;
    stage(id, "c.submit", t0);
    stage(id, "c.answer", answered);
    stage(id, "c.seen", seen);
    sequentialIds.push(id);
    // One more poll of the finished task: what a single poll's round trip costs.
    const t1 = performance.now();
    await poll(id);
    pollMs.push(performance.now() - t1);
    const solveMs = (p.result?.time ?? 0) * 1000;
    total.push(ms);
    solve.push(solveMs);
    overhead.push(ms - solveMs);
  }
  for (const xs of [total, overhead, solve, submitMs, pollMs]) xs.sort((a, b) => a - b);
  // Let the last tails (history, final event, ack) finish so they are counted in this phase.
  await new Promise((r) => setTimeout(r, 300));
  const seqWallMs = performance.now() - seqStarted;
  const burstCost = await snapshot();
  const burstPolls = polls;

  const started = performance.now();
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < BURST) {
        next++;
        ids.push(await submit());
      }
    }),
  );
  const submittedMs = performance.now() - started;
  const pending = new Set(ids);
  const deadline = Date.now() + 120_000;
  while (pending.size > 0 && Date.now() < deadline) {
    // One pass over the pending ids, 16 polls in flight.
    const batch = [...pending];
    let k = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (k < batch.length) {
          const id = batch[k++]!;
          if (finished(await poll(id))) pending.delete(id);
        }
      }),
    );
  }
  const burstMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 300));
  const pollCost = await snapshot();
  const pollPolls = polls;
  // Polls of finished tasks only, 8 in flight: a poll's own cost, to take out of the phases above.
  const POLL_ONLY = 800;
  let p0 = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (p0 < POLL_ONLY) await poll(ids[p0++ % ids.length]!);
    }),
  );
  const endCost = await snapshot();

  const f = (x: number) => x.toFixed(1);
  console.log(`pipeline: ${WORKERS} workers, 3-customer tasks, one API instance, single nats-server`);
  console.log(`| measure | p50 | p95 |`);
  console.log(`|---|---:|---:|`);
  console.log(`| submit -> result seen (ms), ${SEQUENTIAL} sequential | ${f(pct(total, 50))} | ${f(pct(total, 95))} |`);
  console.log(`| solve time reported (ms) | ${f(pct(solve, 50))} | ${f(pct(solve, 95))} |`);
  console.log(`| overhead beyond solve (ms) | ${f(pct(overhead, 50))} | ${f(pct(overhead, 95))} |`);
  console.log(`| of which: the submit's answer (ms) | ${f(pct(submitMs, 50))} | ${f(pct(submitMs, 95))} |`);
  console.log(`| one poll's round trip (ms) | ${f(pct(pollMs, 50))} | ${f(pct(pollMs, 95))} |`);
  console.log(
    `burst: ${BURST} tasks submitted in ${f(submittedMs / 1000)} s, all results in ` +
      `${f(burstMs / 1000)} s: ${(BURST / (burstMs / 1000)).toFixed(0)} tasks/s; ` +
      `missing ${pending.size}`,
  );
  console.log(`\nper-task cost (CPU ms from /proc, NATS messages sent from nats-server's /connz):`);
  console.log(COST_HEADER);
  console.log(costRow("idle (per second)", IDLE_MS / 1000, idleCost, seqCost, "no task"));
  console.log(
    costRow(
      "sequential",
      SEQUENTIAL,
      seqCost,
      burstCost,
      `${((burstPolls - seqPolls) / SEQUENTIAL).toFixed(2)} polls/task, ${(seqWallMs / 1000).toFixed(1)} s`,
    ),
  );
  console.log(
    costRow(
      "burst",
      BURST,
      burstCost,
      pollCost,
      `${((pollPolls - burstPolls) / BURST).toFixed(2)} polls/task, ${(burstMs / 1000).toFixed(1)} s`,
    ),
  );
  console.log(costRow("polls only (per poll)", POLL_ONLY, pollCost, endCost, "finished tasks"));
  if (PROFILE_FILE) {
    // The tails of the last tasks may still be running: give them a moment to log.
    await new Promise((r) => setTimeout(r, 500));
    console.log(`\nprofile of the ${SEQUENTIAL} sequential tasks (${PROFILE_FILE}):\n${profileTable(PROFILE_FILE, sequentialIds)}`);
  }
  if (pending.size > 0) process.exitCode = 1;
} finally {
  if (CPU_PROF_DIR) {
    // A profile is written at a clean exit only: stop the services gracefully first.
    for (const p of [...stack.workers, stack.api]) p.signal("SIGTERM");
    await Promise.all([...stack.workers, stack.api].map((p) => p.exited()));
    console.log(`CPU profiles in ${CPU_PROF_DIR}`);
  }
  await stack.stop();
}
