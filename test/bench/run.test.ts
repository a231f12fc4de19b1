import { expect } from "chai";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { loadBenchmarks, unknownSetMessage } from "../../bench/benchmark-folder.js";
import { REPO_ROOT } from "../../src/infra/service-process.js";

const run = promisify(execFile);

/**
 * A benchmark folder in the layout of ../shared/benchmarks (manifest.json and ready requests
 * under requests/), with two small public instances (CMT1 and CMT2, their best known values), so
 * the runner is tested the same wherever the clone sits.
 */
const FIXTURE = join(REPO_ROOT, "test", "fixtures", "bench-folder");

/** The bench as `npm run bench` runs it (after its build step, which mocha's setup has done), with a tiny time limit. */
async function bench(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  return run(process.execPath, ["--import", "tsx", "bench/run.ts", ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (e: { stdout: string; stderr: string; code: number }) => ({ stdout: e.stdout, stderr: e.stderr, code: e.code }),
  );
}

describe("the solver benchmark runner", function () {
  this.timeout(60_000);

  it("solves a set's ready requests with one strategy and prints their rows and the set's summary", async () => {
    const { stdout, code } = await bench(["--set", "CMT", "--time", "0.3", "--strategy", "clarke-wright", "--bench-dir", FIXTURE]);
    expect(code).to.equal(0);
    expect(stdout).to.match(/compiled build \(dist\/\)/);
    expect(stdout).to.match(/\| CMT1 \| +50 \| +524\.61 \| +\d+\.\d\d \| +-?\d+\.\d\d \|/);
    expect(stdout).to.match(/set CMT: feasible 2\/2, mean gap \d+\.\d\d%/);
  });

  it("runs several strategies side by side into one table: a gap and iterations per strategy and instance, and a mean row", async () => {
    const { stdout, code } = await bench(["--set", "CMT", "--strategies", "clarke-wright,sweep", "--time", "0.2"], { BENCH_DIR: FIXTURE });
    expect(code).to.equal(0);
    const columns = "| clarke-wright gap % | clarke-wright iterations | sweep gap % | sweep iterations |";
    expect(stdout).to.include(`| instance | customers | best known ${columns}`);
    const cell = String.raw` +(-?\d+\.\d\d) \| +(\d+) \|`;
    for (const [name, customers, bks] of [
      ["CMT1", 50, "524.61"],
      ["CMT2", 75, "835.26"],
    ] as const) {
      const row = new RegExp(String.raw`^\| ${name} \| +${customers} \| +${bks.replace(".", "\\.")} \|${cell}${cell}$`, "m").exec(stdout);
      expect(row, `${name}'s row in\n${stdout}`).to.not.equal(null);
      // Constructions of a 50-75 customer CVRP: feasible, within 40% of the optimum.
      for (const gap of [row![1], row![3]]) expect(Number(gap)).to.be.within(0, 40);
      for (const iterations of [row![2], row![4]]) expect(Number(iterations)).to.be.greaterThan(0);
    }
    expect(stdout).to.match(/^\| \*\*mean\*\* \| \| \| \*\*\d+\.\d\d\*\* \| +\d+ \| \*\*\d+\.\d\d\*\* \| +\d+ \|$/m);
    expect(stdout).to.include("mean over the 2 of 2 instances every strategy solved; solved: clarke-wright 2/2, sweep 2/2");
  });

  it("names a strategy of a module listed in STRATEGY_MODULES like a built-in one", async () => {
    // A module folder outside the repository whose strategy is the compiled savings under another name.
    const folder = mkdtempSync(join(tmpdir(), "strategy-module-"));
    try {
      writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "savings-copy", type: "module", main: "index.js" }));
      const savings = pathToFileURL(join(REPO_ROOT, "dist", "strategies", "clarke-wright", "index.js")).href;
      writeFileSync(
        join(folder, "index.js"),
        `import { clarkeWright } from ${JSON.stringify(savings)};\n` + `export default { ...clarkeWright, name: "savings-copy" };\n`,
      );
      // A second of time: the savings try their five shapes in milliseconds, so both columns finish them even on a busy machine.
      const args = ["--set", "CMT", "--strategies", "clarke-wright,savings-copy", "--time", "1", "--bench-dir", FIXTURE];
      const { stdout, code } = await bench(args, { STRATEGY_MODULES: folder });
      expect(code).to.equal(0);
      expect(stdout).to.include("| savings-copy gap % | savings-copy iterations |");
      // Paired: the same instance, seed and time limit, so the same deterministic construction gives the same gap.
      const gaps = /^\| CMT1 \| +50 \| +524\.61 \| +(\d+\.\d\d) \| +\d+ \| +(\d+\.\d\d) \|/m.exec(stdout);
      expect(gaps, stdout).to.not.equal(null);
      expect(gaps![2]).to.equal(gaps![1]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("converts a local hold-out instance from its raw file, with or without a benchmark folder", async () => {
    const { stdout } = await bench(["--set", "X-large", "--limit", "1", "--time", "0.5"], { BENCH_DIR: FIXTURE });
    expect(stdout).to.match(/set X-large: feasible 1\/1/);
  });

  it("says where it looked and how to name the folder when none is found, and exits 2", async () => {
    const empty = mkdtempSync(join(tmpdir(), "no-bench-"));
    try {
      const missing = loadBenchmarks(undefined, {}, join(empty, "shared", "benchmarks"));
      expect(missing.folder).to.equal(null);
      expect(missing.entries.map((e) => e.set)).to.include("X-large");
      const lookedFor = join(empty, "shared", "benchmarks", "manifest.json");
      expect(unknownSetMessage("A", missing)).to.match(
        new RegExp(`^bench: no benchmark folder found \\(looked for ${lookedFor}.*\\); set one with --bench-dir DIR or BENCH_DIR=DIR`),
      );
      const named = await bench(["--set", "A", "--strategies", "clarke-wright,sweep"], { BENCH_DIR: empty });
      expect(named.code).to.equal(2);
      const layout = "expected the layout of a benchmark folder: manifest.json and requests/";
      expect(named.stderr).to.equal(`bench: BENCH_DIR ${empty} has no manifest.json (${layout})\n`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("refuses an unknown strategy name, listing the known ones, with exit code 2", async () => {
    const { stderr, code } = await bench(["--set", "CMT", "--strategies", "clarke-wright,no-such", "--bench-dir", FIXTURE]);
    expect(code).to.equal(2);
    expect(stderr).to.match(/^bench: unknown strategy 'no-such' \(available: .*clarke-wright.*\)\n$/);
  });
});
