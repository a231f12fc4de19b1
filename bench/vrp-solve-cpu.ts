/**
 * The service's CLI (src/cli/vrp-solve.ts: the same validation, strategies and result) with the
 * solver's clock on this process's CPU time, so that a side-by-side run on a busy machine gives ours
 * the computing time PyVRP gets through bench/peers/pyvrp-cpu.py. Benchmarks only: the CLI itself
 * always runs on the wall clock, as the service does.
 * `SOLVER_CLOCK=cpu node --import tsx bench/vrp-solve-cpu.ts REQUEST.json --time-limit S --seed N`
 */
import { useCpuClock } from "../strategies/core/clock.js";
import { main } from "../src/cli/vrp-solve.js";

useCpuClock();
await main();
