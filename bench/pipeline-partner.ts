/**
 * `npm run bench -- pipeline-partner [--sequential N] [--burst N] [--accounts K] [--plan NAME]
 * [--plans-file FILE] [--profile] [--cpu-prof DIR] [--subjects] [--ops] [--wait S]`: tiny tasks on the path partners take. The
 * service is started as `make run` starts it (dist/src/bin/dev.js: nats-server with its file store,
 * the API and 2 workers, LOG_LEVEL info with logs to files), with accounts on a real plan of
 * config/plans.json (default `enterprise`), whose rate and quota are counted as for any partner.
 *
 * - sequential: N (default 150) 3-customer tasks one after another from one account; per task the
 *   time from the submit's start to the first poll that shows the result (polls back to back),
 *   minus the solve time the result reports. p50 / p95. With --wait S every poll asks to wait up
 *   to S seconds for the result (`wait_seconds`, a long poll): one poll per task instead of polls
 *   back to back.
 * - burst: N (default 400) such tasks submitted at once (32 lanes), spread round-robin over K
 *   (default 4) fresh accounts on the same plan, then polled until all are solved: tasks per second
 *   from the first submit to the last result; none may be missing and none refused. Several
 *   accounts because enterprise's 1,200 submits a minute is one partner's limit: K partners on
 *   the plan, each well within its own rate, is the load the service must clear.
 *
 * Per phase it prints CPU ms per task of each process (from /proc, all threads): the API, the
 * workers, nats-server and the `make run` supervisor (which copies the services' logs to files),
 * and apart the bench's own client (it shares the 2 cores: what it spends the service cannot),
 * and the NATS messages each role sent and received and the stored writes per stream
 * (bench/nats-traffic.ts, from nats-server's monitoring endpoints). With --ops, the messages the API
 * and the workers sent per burst task by kind (consumer list, pull, ack, KV write, ...: counted in
 * each process by bench/nats-op-counter.cjs, which costs them a little CPU).
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { profileTable } from "./pipeline-profile.js";
import { cpuMsOf, writeCallsOf } from "./pipeline-cost.js";
import { startPartnerService, type PartnerService } from "./partner-service.js";
import { pct, requestJson, TINY_REQUEST, type Poll } from "./tiny-task.js";
import { subjectKind, subjectTable, trafficSnapshot, trafficTables } from "./nats-traffic.js";
import { connect } from "@nats-io/transport-node";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "pipeline-partner"),
  options: {
    sequential: { type: "string", default: "150" },
    burst: { type: "string", default: "400" },
    accounts: { type: "string", default: "4" },
    plan: { type: "string", default: "enterprise" },
    "plans-file": { type: "string" },
    workers: { type: "string", default: "2" },
    profile: { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
    subjects: { type: "boolean", default: false },
    ops: { type: "boolean", default: false },
    fetch: { type: "boolean", default: false },
    wait: { type: "string", default: "0" },
  },
});
const SEQUENTIAL = Number(values.sequential);
const BURST = Number(values.burst);
const ACCOUNTS = Math.max(1, Number(values.accounts));
const WORKERS = Number(values.workers);
/** --fetch: the client sends with fetch() instead of node:http (what a partner's client spends is not the service's). */
const FETCH_CLIENT = values.fetch;
/** --wait S: polls that wait up to S seconds for the task to finish (long polls). */
const POLL_QUERY = Number(values.wait) > 0 ? `?wait_seconds=${Number(values.wait)}` : "";
const PROFILE_FILE = values.profile ? join(mkdtempSync(join(tmpdir(), "partner-profile-")), "stages.jsonl") : null;
const CPU_PROF_DIR = values["cpu-prof"];
const OPS_FILE = values.ops ? join(mkdtempSync(join(tmpdir(), "partner-ops-")), "ops.jsonl") : null;
const nodeOptions = [
  ...(CPU_PROF_DIR ? [`--cpu-prof --cpu-prof-dir=${CPU_PROF_DIR}`] : []),
  ...(OPS_FILE ? [`--require ${join(import.meta.dirname, "nats-op-counter.cjs")}`] : []),
].join(" ");
/** The client's stage lines, kept in memory until the phase ends so that writing them costs the measured path nothing. */
const clientStages: string[] = [];
const stage = (task: string, name: string, at: number) => {
  if (PROFILE_FILE) clientStages.push(`${JSON.stringify({ task, stage: name, at: performance.timeOrigin + at })}\n`);
};

type OpsSnapshot = { pid: number; role: "api" | "worker"; counts: Record<string, number> }[];

/** Per task, by kind, the messages each role sent between two snapshots (workers summed). */
function opsTable(before: OpsSnapshot, after: OpsSnapshot, tasks: number): string {
  const totals = { api: new Map<string, number>(), worker: new Map<string, number>() };
  for (const [sign, snapshot] of [
    [-1, before],
    [1, after],
  ] as const) {
    for (const { role, counts } of snapshot) {
      for (const [kind, n] of Object.entries(counts)) totals[role].set(kind, (totals[role].get(kind) ?? 0) + sign * n);
    }
  }
  const rows: string[] = ["| role | kind | per task |", "|---|---|---:|"];
  for (const role of ["worker", "api"] as const) {
    const kinds = [...totals[role]].filter(([, n]) => n !== 0).sort((a, b) => b[1] - a[1]);
    for (const [kind, n] of kinds) rows.push(`| ${role} | \`${kind}\` | ${(n / tasks).toFixed(2)} |`);
    rows.push(`| ${role} | total | ${(kinds.reduce((s, [, n]) => s + n, 0) / tasks).toFixed(2)} |`);
  }
  return rows.join("\n");
}

type Cpu = Record<"api" | "workers" | "nats" | "supervisor" | "client", number> & { writes: Record<"api" | "workers" | "nats", number> };

function cpuSnapshot(service: PartnerService): Cpu {
  const { pids } = service;
  return {
    api: cpuMsOf(pids.api),
    workers: pids.workers.reduce((s, p) => s + cpuMsOf(p), 0),
    nats: cpuMsOf(pids.nats),
    supervisor: cpuMsOf(pids.supervisor),
    client: cpuMsOf(process.pid),
    writes: {
      api: writeCallsOf(pids.api),
      workers: pids.workers.reduce((s, p) => s + writeCallsOf(p), 0),
      nats: writeCallsOf(pids.nats),
    },
  };
}

function writesRow(phase: string, tasks: number, before: Cpu, after: Cpu): string {
  const keys = ["api", "workers", "nats"] as const;
  const per = (k: (typeof keys)[number]) => (after.writes[k] - before.writes[k]) / tasks;
  return `| ${phase} | ${keys.map((k) => per(k).toFixed(2)).join(" | ")} |`;
}

function cpuRow(phase: string, tasks: number, before: Cpu, after: Cpu, note: string): string {
  const keys = ["api", "workers", "nats", "supervisor"] as const;
  const per = (k: (typeof keys)[number] | "client") => (after[k] - before[k]) / tasks;
  const total = keys.reduce((s, k) => s + per(k), 0);
  const cells = keys.map((k) => per(k).toFixed(2)).join(" | ");
  return `| ${phase} | ${tasks} | ${cells} | ${total.toFixed(2)} | ${per("client").toFixed(2)} | ${note} |`;
}

const service = await startPartnerService(WORKERS, {
  ...(values["plans-file"] ? { PLANS_FILE: values["plans-file"] } : {}),
  ...(PROFILE_FILE ? { PIPELINE_PROFILE_FILE: PROFILE_FILE } : {}),
  ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
  ...(OPS_FILE ? { NATS_OPS_FILE: OPS_FILE } : {}),
});
const opsSnapshot = async (): Promise<OpsSnapshot> => {
  if (!OPS_FILE) return [];
  const before = existsSync(OPS_FILE) ? readFileSync(OPS_FILE, "utf8").length : 0;
  const pids = [service.pids.api, ...service.pids.workers];
  for (const pid of pids) process.kill(pid, "SIGUSR2");
  for (
    let i = 0;
    i < 100 && (existsSync(OPS_FILE) ? readFileSync(OPS_FILE, "utf8").slice(before) : "").split("\n").length <= pids.length;
    i++
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return readFileSync(OPS_FILE, "utf8")
    .slice(before)
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as OpsSnapshot[number]);
};
let polls = 0;
let refused = 0;
try {
  const headersOf = async (user: string) => ({ ...(await service.account(user, values.plan)), "content-type": "application/json" });
  const submit = async (h: Record<string, string>): Promise<string> => {
    const res = FETCH_CLIENT
      ? await fetch(`${service.baseUrl}/api/v1/solve`, { method: "POST", headers: h, body: TINY_REQUEST }).then(async (r) => ({
          status: r.status,
          json: (await r.json()) as unknown,
        }))
      : await requestJson("POST", `${service.baseUrl}/api/v1/solve`, h, TINY_REQUEST);
    const json = res.json as { request_id: string };
    if (res.status !== 200) {
      refused++;
      throw new Error(`submit answered ${res.status}: ${JSON.stringify(json)}`);
    }
    return json.request_id;
  };
  const poll = async (h: Record<string, string>, id: string): Promise<Poll> => {
    polls++;
    const url = `${service.baseUrl}/api/v1/solve/result/${id}${POLL_QUERY}`;
    if (FETCH_CLIENT) return (await (await fetch(url, { headers: h })).json()) as Poll;
    return (await requestJson("GET", url, h)).json as Poll;
  };
  const finished = (p: Poll) => !p.success || p.result?.status === "solved";

  const seqHeaders = await headersOf("partner-seq");
  // Warm-up: JIT, connections, the solver threads, this account's cached counters.
  for (let i = 0; i < 20; i++) {
    const id = await submit(seqHeaders);
    while (!finished(await poll(seqHeaders, id)));
  }
  const burstHeaders = await Promise.all(Array.from({ length: ACCOUNTS }, (_, i) => headersOf(`partner-burst-${i}`)));

  const IDLE_MS = 5000;
  const traffic = () => trafficSnapshot(service.monitorUrl);
  const idleTraffic = await traffic();
  const idleCpu = cpuSnapshot(service);
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const seqCpu = cpuSnapshot(service);
  const seqTraffic = await traffic();
  const seqPolls = polls;
  // Every message of the sequential phase by kind of subject (--subjects; the tap costs nats-server CPU).
  const subjects = new Map<string, number>();
  const tap = values.subjects ? await connect({ servers: service.natsUrl, name: "bench-tap" }) : null;
  tap?.subscribe(">", {
    callback: (_e, m) => {
      const kind = subjectKind(m.subject);
      subjects.set(kind, (subjects.get(kind) ?? 0) + 1);
    },
  });
  await tap?.flush();
  const seqStarted = performance.now();
  const total: number[] = [];
  const overhead: number[] = [];
  const submitMs: number[] = [];
  const sequentialIds: string[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t0 = performance.now();
    const id = await submit(seqHeaders);
    const answered = performance.now();
    submitMs.push(answered - t0);
    let p: Poll;
    let lastPoll: number;
    do {
      lastPoll = performance.now();
      p = await poll(seqHeaders, id);
    } while (!finished(p));
    const seen = performance.now();
    stage(id, "c.submit", t0);
    stage(id, "c.answer", answered);
    stage(id, "c.lastPoll", lastPoll);
    stage(id, "c.seen", seen);
    sequentialIds.push(id);
    total.push(seen - t0);
    overhead.push(seen - t0 - (p.result?.time ?? 0) * 1000);
  }
  for (const xs of [total, overhead, submitMs]) xs.sort((a, b) => a - b);
  if (PROFILE_FILE) appendFileSync(PROFILE_FILE, clientStages.join(""));
  await new Promise((r) => setTimeout(r, 300));
  await tap?.close();
  const seqWallMs = performance.now() - seqStarted;
  const burstCpu = cpuSnapshot(service);
  const burstTraffic = await traffic();
  const burstPolls = polls;
  const burstOps = await opsSnapshot();

  const started = performance.now();
  const submitted: { id: string; h: Record<string, string> }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < BURST) {
        const h = burstHeaders[next++ % ACCOUNTS]!;
        submitted.push({ id: await submit(h), h });
      }
    }),
  );
  const submittedMs = performance.now() - started;
  const pending = new Map(submitted.map((s) => [s.id, s.h]));
  const deadline = Date.now() + 120_000;
  while (pending.size > 0 && Date.now() < deadline) {
    const batch = [...pending];
    let k = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (k < batch.length) {
          const [id, h] = batch[k++]!;
          if (finished(await poll(h, id))) pending.delete(id);
        }
      }),
    );
  }
  const burstMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 300));
  const endCpu = cpuSnapshot(service);
  const endTraffic = await traffic();
  const endOps = await opsSnapshot();

  const f = (x: number) => x.toFixed(1);
  console.log(
    `pipeline-partner: make run's service (dist/, ${WORKERS} workers, LOG_LEVEL info), plan '${values.plan}', ` +
      `3-customer tasks${POLL_QUERY ? `, polls ${POLL_QUERY.slice(1)}` : ""}; ` +
      `load average before: ${(await import("node:os")).loadavg()[0]!.toFixed(2)}`,
  );
  console.log(`| measure | p50 | p95 |`);
  console.log(`|---|---:|---:|`);
  console.log(`| submit -> result seen (ms), ${SEQUENTIAL} sequential | ${f(pct(total, 50))} | ${f(pct(total, 95))} |`);
  console.log(`| overhead beyond solve (ms) | ${f(pct(overhead, 50))} | ${f(pct(overhead, 95))} |`);
  console.log(`| of which: the submit's answer (ms) | ${f(pct(submitMs, 50))} | ${f(pct(submitMs, 95))} |`);
  console.log(
    `burst: ${BURST} tasks from ${ACCOUNTS} accounts submitted in ${f(submittedMs / 1000)} s, all results in ` +
      `${f(burstMs / 1000)} s: ${(BURST / (burstMs / 1000)).toFixed(0)} tasks/s; missing ${pending.size}, refused ${refused}`,
  );
  console.log(`\nCPU ms per task (from /proc):`);
  console.log(`| phase | tasks | API | workers | nats-server | make run supervisor | total | bench client | note |`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|---:|---|`);
  console.log(cpuRow("idle (per second)", IDLE_MS / 1000, idleCpu, seqCpu, "no task"));
  console.log(
    cpuRow(
      "sequential",
      SEQUENTIAL,
      seqCpu,
      burstCpu,
      `${((burstPolls - seqPolls) / SEQUENTIAL).toFixed(2)} polls/task, ${(seqWallMs / 1000).toFixed(1)} s`,
    ),
  );
  console.log(cpuRow("burst", BURST, burstCpu, endCpu, `${((polls - burstPolls) / BURST).toFixed(2)} polls/task, ${f(burstMs / 1000)} s`));
  console.log(`\nWrite system calls per task (syscw from /proc, all threads):`);
  console.log(`| phase | API | workers | nats-server |`);
  console.log(`|---|---:|---:|---:|`);
  console.log(writesRow("sequential", SEQUENTIAL, seqCpu, burstCpu));
  console.log(writesRow("burst", BURST, burstCpu, endCpu));
  console.log(`\n${trafficTables(`idle (per second)`, IDLE_MS / 1000, idleTraffic, seqTraffic)}`);
  console.log(`\n${trafficTables("sequential", SEQUENTIAL, seqTraffic, burstTraffic)}`);
  console.log(`\n${trafficTables("burst", BURST, burstTraffic, endTraffic)}`);
  if (OPS_FILE) console.log(`\nMessages sent per burst task by kind (--ops):\n${opsTable(burstOps, endOps, BURST)}`);
  if (tap) console.log(`\nMessages of the sequential phase by subject (every process):\n${subjectTable(subjects, SEQUENTIAL)}`);
  if (PROFILE_FILE) {
    await new Promise((r) => setTimeout(r, 500));
    console.log(`\nprofile of the ${SEQUENTIAL} sequential tasks (${PROFILE_FILE}):\n${profileTable(PROFILE_FILE, sequentialIds)}`);
  }
  if (pending.size > 0 || refused > 0) process.exitCode = 1;
} finally {
  await service.stop();
  if (CPU_PROF_DIR) console.log(`CPU profiles in ${CPU_PROF_DIR}`);
}
