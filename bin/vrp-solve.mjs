#!/usr/bin/env node
// Runs the compiled CLI (dist/, made by `make build`) on the project's Node (tools/node), the build
// and runtime the workers solve with, so the CLI's answers are the service's. Started by another
// Node (the first `node` on PATH), it runs itself again under the project's.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const projectNode = join(root, "tools", "node", "node_modules", ".bin", "node");
const cli = join(root, "dist", "src", "cli", "vrp-solve.js");

function missing(what) {
  process.stderr.write(`vrp-solve: ${what} is missing: run make build (in ${root})\n`);
  process.exit(2);
}

if (!existsSync(projectNode)) missing(`the project's Node (${projectNode})`);
const wanted = `v${JSON.parse(readFileSync(join(root, "tools", "node", "node_modules", "node", "package.json"), "utf8")).version}`;
if (process.version !== wanted) {
  if (process.env.VRP_SOLVE_REEXEC) {
    process.stderr.write(`vrp-solve: ${projectNode} runs Node ${process.version}, not ${wanted}: run make build\n`);
    process.exit(2);
  }
  const run = spawnSync(projectNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, VRP_SOLVE_REEXEC: "1" },
  });
  if (run.error) throw run.error;
  process.exit(run.status ?? 1);
}
if (!existsSync(cli)) missing(`the compiled CLI (${cli})`);
const { main } = await import(pathToFileURL(cli).href);
await main();
