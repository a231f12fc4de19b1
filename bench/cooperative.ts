/**
 * Cooperative solves through the service: one XXL-like generated instance (bench/xxl-like-instance.ts)
 * solved by nats-server, the API and WORKERS=1, then the same with WORKERS=2 (the second worker
 * helps), one after the other; prints each cost (checked from the positions), the gap between the
 * two, the help counters of the workers, the machine's load, and the figures of the scaling model
 * in docs/cooperative-solving.md: the median core-NATS round trip and the owner's merge (two
 * whole-plan evaluations) on this instance.
 * `npm run -s bench -- cooperative [--customers N] [--time S] [--index K] [--seed N]`
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
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
  },
});
const { name, request } = generateXxlLike(Number(values.index), Number(values.seed), Number(values.customers));
const positions = request.node_positions as [number, number][];
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

async function solveWith(workers: number): Promise<Run> {
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
    const body = JSON.stringify({ ...request, strategy: "large", seed: 1, time_limit_seconds: Number(values.time) });
    const submit = await fetch(`${base}/api/v1/solve`, { method: "POST", headers, body });
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
    return { workers, cost: checkedCost(routes), routes, resultAfterS, help, roundTripMs: median(trips), load: loadavg() };
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
