import type { Strategy } from "../../strategies/core/strategy.js";
import { loadStrategyModules, STRATEGIES } from "../../strategies/registry.js";
import { runConformance, type CheckResult } from "../conformance/kit.js";

const USAGE = `usage: npm run conformance -- <module | built-in name>... [--strategy NAME]

Runs the conformance kit on every strategy a strategy module exports (a folder with a package.json,
one file, or an installed package name) or on a built-in strategy named as it is: each example
request and each feature family it claims is solved and checked by the service's evaluator, each
family it does not claim must be declined, and a seeded solve must repeat, stop at its time limit,
stop when cancelled and report its progress. Exit code 0 when every check passes, 1 otherwise.`;

const MARK = { pass: "PASS", fail: "FAIL", skip: "SKIP" } as const;

/** Returns the exit code; writes the report through `print`. */
export async function runConformanceCli(argv: string[], print: (line: string) => void): Promise<number> {
  const specs: string[] = [];
  let only: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      print(USAGE);
      return 0;
    }
    if (arg === "--strategy") only = argv[++i] ?? null;
    else specs.push(arg);
  }
  if (specs.length === 0) {
    process.stderr.write(`conformance: name a strategy module to check\n${USAGE}\n`);
    return 2;
  }
  const strategies: Strategy[] = [];
  try {
    for (const spec of specs) {
      const builtIn = STRATEGIES.find((s) => s.name === spec);
      strategies.push(...(builtIn ? [builtIn] : await loadStrategyModules([spec])));
    }
  } catch (err) {
    process.stderr.write(`conformance: ${(err as Error).message}\n`);
    return 2;
  }
  const chosen = only === null ? strategies : strategies.filter((s) => s.name === only);
  if (chosen.length === 0) {
    process.stderr.write(`conformance: no strategy named '${only}' among ${strategies.map((s) => s.name).join(", ")}\n`);
    return 2;
  }
  let failed = 0;
  for (const strategy of chosen) {
    print(`${strategy.name} (${strategy.kind}; claims ${strategy.features.join(", ")})`);
    const results = runConformance(strategy);
    const width = Math.max(...results.map((r) => r.check.length));
    for (const r of results) print(`  ${MARK[r.outcome]}  ${r.check.padEnd(width)}  ${r.detail}`);
    const count = (o: CheckResult["outcome"]) => results.filter((r) => r.outcome === o).length;
    print(`${strategy.name}: ${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped\n`);
    failed += count("fail");
  }
  print(failed === 0 ? "conformance: every check passed" : `conformance: ${failed} check(s) failed`);
  return failed === 0 ? 0 : 1;
}

export async function main(): Promise<void> {
  process.exitCode = await runConformanceCli(process.argv.slice(2), (line) => process.stdout.write(line + "\n"));
}
