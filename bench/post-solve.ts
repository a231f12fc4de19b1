/**
 * The time a request spends after its strategy returns (completing the plan, judging it, its
 * unassigned reasons and formatting the result), on 1,000-customer requests: the rich XXL sample
 * (several depots, a mixed fleet, windows) as it is, and with every tenth customer optional
 * (its `unassigned` entries priced). A fixed iteration count keeps the answer the same from run to
 * run, so only the post-solve phase is compared; the median of `--runs` runs per request.
 *
 *   taskset -c 1 node --import tsx bench/post-solve.ts [--runs 7] [--customers 1000]
 */
import { join } from "node:path";
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
  },
});
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
  const seconds: number[] = [];
  let status = "";
  for (let k = 0; k < runs; k++) {
    const stats: { iterations: number; postSolveSeconds?: number } = { iterations: 0 };
    const outcome = solveRequest(request, {
      requestId: "post-solve",
      timeLimitSeconds: 120,
      seed: 1,
      maxIterations: Number(values.iterations),
      stats,
    });
    status = outcome.status;
    seconds.push(stats.postSolveSeconds ?? Number.NaN);
  }
  const ms = seconds.map((s) => (s * 1000).toFixed(1)).join(" ");
  console.log(`${name}: ${status}, post-solve median ${(median(seconds) * 1000).toFixed(1)} ms over ${runs} runs (${ms})`);
}
