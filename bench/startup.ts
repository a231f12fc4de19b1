/**
 * Start-up time (spawn to READY) and resident memory of the API and a worker, per runtime:
 * the TypeScript sources through the tsx loader, or the compiled build (dist/), each on the
 * system Node and on the project's Node 24. Runs alternate between variants, so load on the
 * machine hits them alike; medians are printed.
 *
 *   npm run bench:startup -- [--runs 5]   (SYSTEM_NODE=/path/to/node for another "before" Node)
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startNatsServer } from "../src/infra/nats-server.js";
import { freePort } from "../src/infra/free-port.js";
import { REPO_ROOT } from "../src/infra/repo-root.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
const SYSTEM_NODE = process.env.SYSTEM_NODE ?? "/usr/bin/node";
const PROJECT_NODE = join(REPO_ROOT, "tools/node/node_modules/.bin/node");
const version = (node: string) => spawnSyncText(node, ["--version"]);

function spawnSyncText(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: "utf8" }).trim();
}

const variants = [
  { name: "tsx, system Node", node: SYSTEM_NODE, args: (e: string) => ["--import", "tsx", `src/bin/${e}.ts`] },
  { name: "compiled, system Node", node: SYSTEM_NODE, args: (e: string) => [`dist/src/bin/${e}.js`] },
  { name: "tsx, Node 24", node: PROJECT_NODE, args: (e: string) => ["--import", "tsx", `src/bin/${e}.ts`] },
  { name: "compiled, Node 24", node: PROJECT_NODE, args: (e: string) => [`dist/src/bin/${e}.js`] },
];

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

/** Milliseconds to READY, RSS at READY and 2 s later (a worker's solver thread has started by then). */
async function startOnce(
  node: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ readyMs: number; rssReady: number; rssSettled: number }> {
  const started = performance.now();
  const child = spawn(node, args, { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  const readyMs = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      // The ready line: `READY <url>`, or as a JSON log line `{"msg":"ready",...}`.
      if (/^READY |"msg":"ready"/m.test(out)) resolve(performance.now() - started);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before READY: ${out}`)));
  });
  const rssReady = rssMiB(child.pid!);
  await new Promise((r) => setTimeout(r, 2000));
  const rssSettled = rssMiB(child.pid!);
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  return { readyMs, rssReady, rssSettled };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const storeDir = mkdtempSync(join(tmpdir(), "vrp-bench-startup-"));
const nats = await startNatsServer({ storeDir });
try {
  console.log(`system Node ${version(SYSTEM_NODE)}, project Node ${version(PROJECT_NODE)}; ${runs} runs each, alternating`);
  for (const entry of ["api", "worker"] as const) {
    const samples = new Map(variants.map((v) => [v.name, [] as Awaited<ReturnType<typeof startOnce>>[]]));
    for (let i = 0; i < runs; i++) {
      for (const v of variants) {
        const env = { ...process.env, NATS_URL: nats.url, PORT: String(await freePort()), WORKER_METRICS_PORT: "0", LOG_LEVEL: "info" };
        samples.get(v.name)!.push(await startOnce(v.node, v.args(entry), env));
      }
    }
    console.log(`\n${entry}: median of ${runs}`);
    console.log("| runtime | start to READY (ms) | RSS at READY (MiB) | RSS 2 s later (MiB) |\n|---|---|---|---|");
    for (const [name, s] of samples) {
      console.log(
        `| ${name} | ${median(s.map((x) => x.readyMs)).toFixed(0)} | ` +
          `${median(s.map((x) => x.rssReady)).toFixed(1)} | ` +
          `${median(s.map((x) => x.rssSettled)).toFixed(1)} |`,
      );
    }
  }
} finally {
  await nats.stop();
  rmSync(storeDir, { recursive: true, force: true });
}
