/**
 * Cooperative solves through the service: one XXL-like generated instance (bench/xxl-like-instance.ts)
 * solved by nats-server, the API and WORKERS=1, then the same with WORKERS=2 (the second worker
 * helps), one after the other; prints each cost (checked from the positions), the gap between the
 * two, the help counters of the workers, the machine's load, and the figures of the scaling model
 * in docs/cooperative-solving.md: the median core-NATS round trip and the owner's merge (two
 * whole-plan evaluations) on this instance.
 * `npm run -s bench -- cooperative [--customers N] [--time S] [--index K] [--seed N]`
 *
 * With `--set NAME` instead: every request of that shared set (requests/NAME of BENCH_DIR, else
 * ../shared/benchmarks; `GH1000`: the 1,000-customer ones of GH-large), each with every seed of
 * `--seeds` (default 1), the strategy the service selects (or `--strategy`), on 1 worker then 2;
 * prints both costs per instance and seed (scored by the shared evaluator) and the mean difference.
 * `npm run -s bench -- cooperative --set GH1000 --time 30 --seeds 1,2,3`
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { parseArgs } from "node:util";
import { evaluateSolution } from "../strategies/core/evaluator.js";
import { compileRequest } from "../src/problem/compile-request.js";
import { loadConfig } from "../src/config/load.js";
import { freePort } from "../src/infra/free-port.js";
import { startNatsServer } from "../src/infra/nats-server.js";
import { spawnService, type ServiceProcess } from "../src/infra/service-process.js";
import { createLogger } from "../src/log/logger.js";
import { connectNats } from "../src/queue/connection.js";
import { AccountStore } from "../src/store/accounts.js";
import { sampleValue } from "../test/helpers/metrics.js";
import { generateXxlLike } from "./xxl-like-instance.js";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "cooperative"),
  options: {
    customers: { type: "string", default: "6000" },
    time: { type: "string", default: "60" },
    index: { type: "string", default: "0" },
    seed: { type: "string", default: "2026" },
    set: { type: "string" },
    seeds: { type: "string", default: "1" },
    strategy: { type: "string" },
  },
});
const { name, request } = generateXxlLike(Number(values.index), Number(values.seed), Number(values.customers));
const positions = request.node_positions as [number, number][];

/** The requests of a shared set; GH1000: GH-large's 1,000-customer instances. */
function setRequests(set: string): { name: string; request: SolveRequestInput }[] {
  const dir = process.env.BENCH_DIR ?? resolve(REPO_ROOT, "../shared/benchmarks");
  const folder = join(dir, "requests", set === "GH1000" ? "GH-large" : set);
  return readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ""), request: JSON.parse(readFileSync(join(folder, f), "utf8")) as SolveRequestInput }))
    .filter((r) => set !== "GH1000" || r.request.node_num === 1001);
}
const quiet = createLogger({ service: "bench" }, "error", () => undefined);

/** Independent check: every customer once, capacity kept; the cost recomputed from the positions. */
function checkedCost(routes: Record<string, number[]>): number {
  const seen = new Uint8Array(request.node_num);
  let cost = 0;
  for (const route of Object.values(routes)) {
    let load = 0;
    for (let k = 1; k < route.length; k++) {
      const [a, b] = [positions[route[k - 1]!]!, positions[route[k]!]!];
      cost += Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (k === route.length - 1) continue;
      if (seen[route[k]!]) throw new Error(`customer ${route[k]} visited twice`);
      seen[route[k]!] = 1;
      load += request.node_demands![route[k]!]!;
    }
    if (load > request.vehicles_capacity![0]!) throw new Error("a route over capacity");
  }
  for (let c = 1; c < request.node_num; c++) if (!seen[c]) throw new Error(`customer ${c} not visited`);
  return cost;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Run {
  workers: number;
  cost: number;
  routes: Record<string, number[]>;
  resultAfterS: number;
  help: Record<string, number>;
  roundTripMs: number;
  load: number[];
}

async function solveWith(
  workers: number,
  body: Record<string, unknown> = { ...request, strategy: "large", seed: 1, time_limit_seconds: Number(values.time) },
  cost: (routes: Record<string, number[]>) => number = checkedCost,
): Promise<Run> {
  const storeDir = mkdtempSync(join(tmpdir(), "vrp-coop-"));
  const nats = await startNatsServer({ storeDir: join(storeDir, "nats") });
  const env = { ...process.env, NATS_URL: nats.url, PORT: String(await freePort()), LOG_LEVEL: "warn" };
  const services: ServiceProcess[] = [];
  try {
    const conn = await connectNats(loadConfig(env), "bench-setup", quiet);
    services.push(await spawnService("api", env));
    for (let w = 0; w < workers; w++) services.push(await spawnService("worker", env));
    const accounts = new AccountStore(conn.accounts, conn.apiKeys);
    await accounts.createAccount("coop", "large");
    const { key } = await accounts.createKey("coop");
    // The core-NATS round trip an item's answer takes (a request to a subscriber on the same server).
    const echo = conn.nc.subscribe("bench.echo", { callback: (_e, m) => void m.respond(m.data) });
    const trips: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await conn.nc.request("bench.echo", "x".repeat(30_000), { timeout: 2000 });
      trips.push(performance.now() - t);
    }
    echo.unsubscribe();
    const headers = { "Content-Type": "application/json", "X-User-Name": "coop", "X-Api-Key": key };
    const base = services[0]!.url;
    const t0 = performance.now();
    const submit = await fetch(`${base}/api/v1/solve`, { method: "POST", headers, body: JSON.stringify(body) });
    const ack = (await submit.json()) as { request_id: string };
    if (submit.status !== 200) throw new Error(`submit answered ${submit.status}: ${JSON.stringify(ack)}`);
    let final: { success: boolean; result: { status?: string; routes?: Record<string, number[]> } | null };
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      final = (await (await fetch(`${base}/api/v1/solve/result/${ack.request_id}`, { headers })).json()) as typeof final;
      if (!final.success || final.result?.status !== "processing") break;
    }
    const resultAfterS = (performance.now() - t0) / 1000;
    if (!final.success || !final.result?.routes) throw new Error(`not solved: ${JSON.stringify(final).slice(0, 400)}`);
    const help: Record<string, number> = {};
    for (const worker of services.slice(1)) {
      const text = await (await fetch(worker.url)).text();
      for (const metric of ["offered", "taken", "merged"]) {
        help[metric] = (help[metric] ?? 0) + sampleValue(text, `vrp_help_items_${metric}_total`);
      }
      for (const reason of ["late", "stale", "not_better", "unsent"]) {
        help[`dropped_${reason}`] = (help[`dropped_${reason}`] ?? 0) + sampleValue(text, "vrp_help_items_dropped_total", { reason });
      }
    }
    await conn.close();
    const routes = final.result.routes;
    return { workers, cost: cost(routes), routes, resultAfterS, help, roundTripMs: median(trips), load: loadavg() };
  } finally {
    for (const s of services) s.signal("SIGTERM");
    await Promise.all(services.map((s) => s.exited()));
    await nats.kill();
    rmSync(storeDir, { recursive: true, force: true });
  }
}

/** The owner's merge of one answer: the whole plan scored twice by the shared evaluator. */
function mergeMs(routes: Record<string, number[]>): number {
  const { problem } = compileRequest(request);
  const plan = { routes: Array.from({ length: problem.vehicleCount }, (_, v) => (routes[`Vehicle ${v}`] ?? []).slice(1, -1)) };
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    evaluateSolution(problem, plan);
    evaluateSolution(problem, plan);
    times.push(performance.now() - t);
  }
  return median(times);
}

/** A set's result scored by the shared evaluator, refused unless feasible and complete. */
function evaluatedCost(req: SolveRequestInput): (routes: Record<string, number[]>) => number {
  const { problem } = compileRequest(req);
  return (routes) => {
    const plan = { routes: Array.from({ length: problem.vehicleCount }, (_, v) => (routes[`Vehicle ${v}`] ?? []).slice(1, -1)) };
    const score = evaluateSolution(problem, plan);
    if (!score.feasible || score.missing.length > 0) throw new Error("the result is not a feasible complete plan");
    return score.cost;
  };
}

if (values.set) {
  const rows: { instance: string; seed: number; one: number; two: number; pct: number; help: Record<string, number>; load: number[] }[] =
    [];
  for (const { name: instance, request: req } of setRequests(values.set)) {
    for (const seed of values.seeds.split(",").map(Number)) {
      const body = { ...req, seed, time_limit_seconds: Number(values.time), ...(values.strategy ? { strategy: values.strategy } : {}) };
      const one = await solveWith(1, body, evaluatedCost(req));
      const two = await solveWith(2, body, evaluatedCost(req));
      const row = {
        instance,
        seed,
        one: Number(one.cost.toFixed(2)),
        two: Number(two.cost.toFixed(2)),
        pct: Number(((100 * (two.cost - one.cost)) / one.cost).toFixed(3)),
        help: two.help,
        load: two.load.map((l) => Number(l.toFixed(2))),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
  const mean = rows.reduce((t, r) => t + r.pct, 0) / Math.max(1, rows.length);
  console.log(
    JSON.stringify({ set: values.set, time_limit_s: Number(values.time), runs: rows.length, mean_two_vs_one_pct: Number(mean.toFixed(3)) }),
  );
  process.exit(0);
}

const runs: Run[] = [];
for (const workers of [1, 2]) runs.push(await solveWith(workers));
const [one, two] = runs as [Run, Run];
console.log(
  JSON.stringify(
    {
      instance: name,
      customers: request.node_num - 1,
      time_limit_s: Number(values.time),
      runs: runs.map((r) => ({
        workers: r.workers,
        checked_cost: Number(r.cost.toFixed(2)),
        result_after_s: Number(r.resultAfterS.toFixed(1)),
        help: r.help,
        nats_round_trip_ms: Number(r.roundTripMs.toFixed(2)),
        load_average: r.load.map((l) => Number(l.toFixed(2))),
      })),
      two_vs_one_pct: Number(((100 * (two.cost - one.cost)) / one.cost).toFixed(3)),
      merge_ms: Number(mergeMs(two.routes).toFixed(2)),
    },
    null,
    2,
  ),
);
