/**
 * The time a request spends after its strategy returns (completing the plan, judging it, its
 * unassigned reasons and formatting the result), on 1,000-customer requests: the rich XXL sample
 * (several depots, a mixed fleet, windows) as it is, and with every tenth customer optional
 * (its `unassigned` entries priced). A fixed iteration count keeps the answer the same from run to
 * run, so only the post-solve phase is compared; the median of `--runs` runs per request.
 * `--against DIR` runs another checkout's solveRequest (one that reports postSolveSeconds, e.g. a
 * `git archive` of an earlier commit inside this tree) alternately with this one in the same
 * process, and prints the ratio of the medians.
 *
 * `--strategy NAME` pins the strategy (a construction such as clarke-wright leaves little garbage
 * for the post-solve phase to meet).
 *
 *   taskset -c 1 node --expose-gc --import tsx bench/post-solve.ts [--runs 7] [--customers 1000] [--against DIR]
 */
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { solveRequest } from "../src/problem/solve-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { generateRichXxl } from "./rich-xxl-instance.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "7" },
    customers: { type: "string", default: "1000" },
    iterations: { type: "string", default: "200" },
    shared: { type: "string", default: "/work/shared/benchmarks" },
    against: { type: "string" },
    strategy: { type: "string" },
  },
});
type Solve = typeof solveRequest;
const solvers: [string, Solve][] = [["this", solveRequest]];
if (values.against) {
  const other = (await import(pathToFileURL(resolve(values.against, "src/problem/solve-request.ts")).href)) as { solveRequest: Solve };
  solvers.unshift([values.against, other.solveRequest]);
}
const runs = Number(values.runs);
const customers = Number(values.customers);

const rich = generateRichXxl(join(values.shared, "requests/XXL/Antwerp1.json"), customers, 3, 1).request;
/** Every tenth customer optional at a penalty below most insertions: the result lists and prices them. */
const optional: SolveRequestInput = {
  ...rich,
  node_skip_penalties: rich.node_demands.map((_, i) => (i > 2 && i % 10 === 0 ? 50 : null)),
} as SolveRequestInput;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const [name, request] of [
  ["rich-xxl-1000", rich],
  ["rich-xxl-1000-optional", optional],
] as const) {
  const seconds = solvers.map((): number[] => []);
  let status = "";
  // Alternating, so that both meet the same load of a shared machine.
  for (let k = 0; k < runs; k++) {
    solvers.forEach(([, solve], i) => {
      const stats: { iterations: number; postSolveSeconds?: number } = { iterations: 0 };
      // Under --expose-gc each run starts from a collected heap, so no run pays for another's garbage.
      (globalThis as { gc?: () => void }).gc?.();
      const outcome = solve(request, {
        requestId: "post-solve",
        timeLimitSeconds: 120,
        seed: 1,
        maxIterations: Number(values.iterations),
        strategy: values.strategy,
        stats,
      });
      status = outcome.status;
      seconds[i]!.push(stats.postSolveSeconds ?? Number.NaN);
    });
  }
  solvers.forEach(([who], i) => {
    const ms = seconds[i]!.map((s) => (s * 1000).toFixed(1)).join(" ");
    const least = Math.min(...seconds[i]!) * 1000;
    console.log(
      `${name} (${who}): ${status}, post-solve median ${(median(seconds[i]!) * 1000).toFixed(1)} ms, ` +
        `least ${least.toFixed(1)} ms over ${runs} runs (${ms})`,
    );
  });
  if (solvers.length === 2) {
    const [before, after] = [seconds[0]!, seconds[1]!];
    const ratio = (f: (xs: number[]) => number) => (f(after) / f(before)).toFixed(2);
    console.log(`${name}: this / ${solvers[0]![0]}: medians ${ratio(median)}, least ${ratio((xs) => Math.min(...xs))}`);
  }
}
