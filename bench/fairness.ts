/**
 * `npm run bench -- fairness [--burst N] [--burst-seconds S] [--mixed-seconds S] [--workers W] [--rounds R]`:
 * fair shares between accounts on the real service (a nats-server, one API instance and W workers
 * from dist/, `make build`), with the plans of config/plans.json plus two of weights 1 and 3.
 *
 * - burst: account A (enterprise) submits N (default 40) tasks of S (default 3) seconds, then
 *   account B (pro) one task of 1 s. Prints B's wait from its submit to its solve start against
 *   one of A's solves, and A's burst makespan against first come first served measured: the same
 *   burst again with the single task sent from A's own account, so queued behind the burst. After
 *   a warm-up on every worker, R rounds of both schedules, the order alternating; each task's start
 *   and end are its `solving` and final events' stored times.
 * - mixed: an account of weight 1 and one of weight 3, both with more tasks queued (1 s and 2 s
 *   alternating) than the workers can start in the window; after `--mixed-seconds` (default
 *   120) the tasks each has had started (its consumer's deliveries) and their share.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/load.js";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import { connectNats, type Nats } from "../src/queue/connection.js";
import { flowConsumer, flowKey } from "../src/queue/flows.js";
import { NAMES } from "../src/queue/names.js";
import { TaskEvents } from "../src/queue/task-events.js";
import { taskReader } from "../src/queue/task-queue.js";
import { QUICK_SOLVE_MS } from "../src/worker/task-runner.js";
import { quietLog } from "../test/helpers/nats.js";
import { cvrpRequest } from "../test/helpers/requests.js";
import { startStack, type Stack } from "../test/helpers/stack.js";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "fairness"),
  options: {
    burst: { type: "string", default: "40" },
    "burst-seconds": { type: "string", default: "3" },
    "mixed-seconds": { type: "string", default: "120" },
    workers: { type: "string", default: "2" },
    rounds: { type: "string", default: "2" },
  },
});
const BURST = Number(values.burst);
const BURST_SECONDS = Number(values["burst-seconds"]);
const MIXED_SECONDS = Number(values["mixed-seconds"]);
const WORKERS = Number(values.workers);
const ROUNDS = Number(values.rounds);

const task = (seconds: number, seed: number) => ({
  ...cvrpRequest({ customers: 40, vehicles: 6, capacity: 70, seed }),
  time_limit_seconds: seconds,
});

async function submit(stack: Stack, headers: Record<string, string>, body: unknown): Promise<string> {
  const res = await fetch(`${stack.baseUrl}/api/v1/solve`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { request_id?: string; error?: string };
  if (res.status !== 200 || !json.request_id) throw new Error(`submit answered ${res.status}: ${json.error}`);
  return json.request_id;
}

/** Waits until every task is final (as the API reads a task: one that exists only as its message is still queued). */
async function awaitFinal(nats: Nats, ids: readonly string[]): Promise<void> {
  const store = taskReader(nats);
  const pending = new Set(ids);
  for (const deadline = Date.now() + 30 * 60_000; pending.size > 0;) {
    if (Date.now() > deadline) throw new Error("tasks did not finish in 30 minutes");
    await Promise.all(
      [...pending].map(async (id) => {
        const state = (await store.get(id))?.state;
        if (state === "solved" || state === "failed") pending.delete(id);
      }),
    );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * When each task started and ended, to the millisecond, from the stored times JetStream stamped on
 * its events: the final event's, and the `solving` event's (the one after `queued`) less the time
 * a first delivery solves before logging it.
 */
async function eventTimes(nats: Nats, ids: readonly string[]): Promise<Map<string, { start: number; end: number }>> {
  const times = new Map<string, { start: number; end: number }>();
  for (const id of ids) {
    const subject = TaskEvents.subject(id);
    const queued = await nats.jsm.direct.getMessage(NAMES.eventStream, { next_by_subj: subject });
    const solving = queued && (await nats.jsm.direct.getMessage(NAMES.eventStream, { seq: queued.seq + 1, next_by_subj: subject }));
    const final = await nats.jsm.direct.getMessage(NAMES.eventStream, { last_by_subj: subject });
    if (!solving || !final) throw new Error(`task ${id} has no solving or final event`);
    times.set(id, { start: solving.time.getTime() - QUICK_SOLVE_MS, end: final.time.getTime() });
  }
  return times;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** Worker time left idle from the first start to the last start (something was queued all along), in 10 ms steps. */
function idleWhileQueued(times: readonly { start: number; end: number }[], workers: number): number {
  const from = Math.min(...times.map((t) => t.start));
  const to = Math.max(...times.map((t) => t.start));
  let idle = 0;
  for (let at = from; at < to; at += 10) {
    const running = times.filter((t) => t.start <= at && at < t.end).length;
    idle += Math.max(0, workers - running) * 10;
  }
  return idle;
}

interface BurstRun {
  name: string;
  aSolve: number;
  aMakespan: number;
  /** A's solve times added up, shared by the workers: the makespan of a perfect schedule of A's work. */
  aWorkPerWorker: number;
  single: { start: number; end: number; wait: number };
  handover: number;
  idle: number;
}

/**
 * A's burst, then one 1 s task: from B's own account (`fair`, its own flow), or from A's account
 * (`fcfs`: the end of A's flow, which is first come first served), the measured baseline.
 */
async function burstRun(stack: Stack, nats: Nats, name: string, singleFromA: boolean): Promise<BurstRun> {
  const a = (await stack.account(`bench-burst-a-${name}`, "enterprise")).headers;
  const b = singleFromA ? a : (await stack.account(`bench-burst-b-${name}`, "pro")).headers;
  const burstIds: string[] = [];
  for (let i = 0; i < BURST; i++) burstIds.push(await submit(stack, a, task(BURST_SECONDS, i)));
  await new Promise((r) => setTimeout(r, 1000));
  const submitted = Date.now();
  const single = await submit(stack, b, task(1, 99));
  await awaitFinal(nats, [...burstIds, single]);
  const aTimes = await eventTimes(nats, burstIds);
  const singleTime = (await eventTimes(nats, [single])).get(single)!;
  const solves = [...aTimes.values()].map((t) => t.end - t.start).sort((x, y) => x - y);
  const firstStart = Math.min(...[...aTimes.values()].map((t) => t.start));
  // The handover: from a task's end to the next start (the pipeline's own time, the same under any order).
  const all = [...aTimes.values(), singleTime];
  const gaps = all
    .map((t) => Math.min(...all.map((u) => u.start - t.end).filter((g) => g >= 0)))
    .filter((g) => Number.isFinite(g))
    .sort((x, y) => x - y);
  if (process.env.FAIRNESS_TIMELINE) {
    for (const [id, t] of [...aTimes.entries()].sort((x, y) => x[1].start - y[1].start))
      console.log(`${name} A ${id.slice(0, 8)} ${seconds(t.start - submitted)} .. ${seconds(t.end - submitted)}`);
    console.log(`${name} single ${seconds(singleTime.start - submitted)} .. ${seconds(singleTime.end - submitted)}`);
  }
  return {
    name,
    aSolve: solves[Math.floor(solves.length / 2)]!,
    aMakespan: Math.max(...[...aTimes.values()].map((t) => t.end)) - firstStart,
    aWorkPerWorker: solves.reduce((x, y) => x + y, 0) / WORKERS,
    single: { ...singleTime, wait: singleTime.start - submitted },
    handover: gaps[Math.floor(gaps.length / 2)] ?? 0,
    idle: idleWhileQueued(all, WORKERS),
  };
}

/** A few tasks on every worker first, so that neither schedule is measured on a cold service. */
async function warmUp(stack: Stack, nats: Nats): Promise<void> {
  const headers = (await stack.account("bench-warm-up", "enterprise")).headers;
  const ids: string[] = [];
  for (let i = 0; i < 2 * WORKERS; i++) ids.push(await submit(stack, headers, task(1, 1000 + i)));
  await awaitFinal(nats, ids);
}

async function burstCase(stack: Stack, nats: Nats): Promise<void> {
  await warmUp(stack, nats);
  console.log(
    `burst: ${BURST} tasks of ${BURST_SECONDS} s from A (enterprise), then one 1 s task: from B (pro) under fair ` +
      `shares, from A itself (behind the burst) for first come first served; ${WORKERS} workers, ${ROUNDS} round(s), ` +
      `the order alternating (fair first in odd rounds); times from the events' stored stamps`,
  );
  console.log(
    "| round | schedule | A's solve (median) | single task's wait | its solve | handover (median) | A's burst | " +
      "A's burst beyond A's work / workers | idle while queued |",
  );
  console.log("|---:|---|---:|---:|---:|---:|---:|---:|---:|");
  const beyond = (run: BurstRun) => run.aMakespan - run.aWorkPerWorker;
  const pairs: { fair: BurstRun; fcfs: BurstRun }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? ["fair", "fcfs"] : ["fcfs", "fair"];
    const runs: Record<string, BurstRun> = {};
    for (const name of order) {
      const run = await burstRun(stack, nats, `${name}-${round}`, name === "fcfs");
      runs[name] = run;
      console.log(
        `| ${round} | ${name} | ${seconds(run.aSolve)} | ${seconds(run.single.wait)} | ${seconds(run.single.end - run.single.start)} | ` +
          `${seconds(run.handover)} | ${seconds(run.aMakespan)} | ${seconds(beyond(run))} | ${seconds(run.idle)} |`,
      );
    }
    pairs.push({ fair: runs.fair!, fcfs: runs.fcfs! });
  }
  console.log(
    "\n| round | B's wait | bound: A's solve + 2 s | A's burst, fair | bound: first come first served + B's solve | " +
      "beyond A's work, fair | bound: first come first served + B's solve |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  pairs.forEach(({ fair, fcfs }, i) => {
    const bSolve = fair.single.end - fair.single.start;
    console.log(
      `| ${i + 1} | ${seconds(fair.single.wait)} | ${seconds(fair.aSolve + 2000)} | ${seconds(fair.aMakespan)} | ` +
        `${seconds(fcfs.aMakespan + bSolve)} | ${seconds(beyond(fair))} | ${seconds(beyond(fcfs) + bSolve)} |`,
    );
  });
}

async function mixedCase(stack: Stack, nats: Nats): Promise<void> {
  const light = (await stack.account("bench-mixed-w1", "bench-w1")).headers;
  const heavy = (await stack.account("bench-mixed-w3", "bench-w3")).headers;
  // More than the workers can start in the window, so both stay backlogged: a task of "1 s" that
  // converges early takes half a second, and the heavier account gets three starts in four.
  const perAccount = Math.ceil(((MIXED_SECONDS / 0.5) * WORKERS * 3) / 4) + 10;
  const lightIds: string[] = [];
  const heavyIds: string[] = [];
  for (let i = 0; i < perAccount; i++) {
    lightIds.push(await submit(stack, light, task(1 + (i % 2), i)));
    heavyIds.push(await submit(stack, heavy, task(1 + (i % 2), i)));
  }
  const delivered = async (owner: string) =>
    (await nats.jsm.consumers.info(NAMES.taskStream, flowConsumer(flowKey(owner)))).delivered.consumer_seq;
  const left = async (owner: string) => (await nats.jsm.consumers.info(NAMES.taskStream, flowConsumer(flowKey(owner)))).num_pending;
  const start = { w1: await delivered("bench-mixed-w1"), w3: await delivered("bench-mixed-w3") };
  await stack.startWorker();
  for (let i = 1; i < WORKERS; i++) await stack.startWorker();
  await new Promise((r) => setTimeout(r, MIXED_SECONDS * 1000));
  const w1 = (await delivered("bench-mixed-w1")) - start.w1;
  const w3 = (await delivered("bench-mixed-w3")) - start.w3;
  const backlog = { w1: await left("bench-mixed-w1"), w3: await left("bench-mixed-w3") };
  const share = w3 / Math.max(1, w1 + w3);
  console.log(`\nmixed: weights 1 and 3, tasks of 1 s and 2 s alternating, ${WORKERS} workers, ${MIXED_SECONDS} s`);
  console.log("| account | weight | tasks started | share | still queued at the end |");
  console.log("|---|---:|---:|---:|---:|");
  console.log(`| w1 | 1 | ${w1} | ${(1 - share).toFixed(3)} | ${backlog.w1} |`);
  console.log(`| w3 | 3 | ${w3} | ${share.toFixed(3)} | ${backlog.w3} |`);
  console.log(`ratio w3/w1 = ${(w3 / Math.max(1, w1)).toFixed(2)} (target 3, within 10%: 2.70 to 3.30)`);
  if (backlog.w1 === 0 || backlog.w3 === 0) console.log("a backlog ran dry within the window: the shares are not a measure of the weights");
}

const dir = mkdtempSync(join(tmpdir(), "vrp-bench-fairness-"));
const plans = JSON.parse(readFileSync(join(REPO_ROOT, "config/plans.json"), "utf8")) as { plans: Record<string, Record<string, unknown>> };
const pro = plans.plans.pro!;
plans.plans["bench-w1"] = { ...pro, weight: 1, max_queued: 1000, max_solving: 1000, submits_per_minute: 100_000 };
plans.plans["bench-w3"] = { ...pro, weight: 3, max_queued: 1000, max_solving: 1000, submits_per_minute: 100_000 };
const plansFile = join(dir, "plans.json");
writeFileSync(plansFile, JSON.stringify(plans));

let stack: Stack | null = null;
let nats: Nats | null = null;
try {
  stack = await startStack({ workers: WORKERS, env: { PLANS_FILE: plansFile, LOG_LEVEL: "warn" } });
  nats = await connectNats(loadConfig(stack.env), "bench-fairness", quietLog);
  await burstCase(stack, nats);
  // The mixed load is queued while no worker runs, so both accounts start backlogged.
  for (const w of stack.workers.splice(0)) {
    w.signal("SIGTERM");
    await w.exited();
  }
  await mixedCase(stack, nats);
} finally {
  await nats?.close();
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
}
