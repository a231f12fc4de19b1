/**
 * The solver's clock in milliseconds: every deadline and time share in `strategies/` is read from
 * it. Wall time (performance.now()) everywhere, except when the environment sets
 * SOLVER_CLOCK=cpu: then it is this process's CPU time. Benchmarks use that on a busy machine
 * (`SOLVER_CLOCK=cpu npm run bench -- ...`), so that each solve gets the same computing time it
 * would get alone and figures from a loaded run stay comparable. Never set it in the service: the
 * worker's process also runs its NATS client and other solves, whose CPU time would count.
 */
const cpuClock = typeof process !== "undefined" && process.env?.SOLVER_CLOCK === "cpu";

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

export const solverNow: () => number = cpuClock ? cpuMs : () => performance.now();

/** Whether the clock is CPU time (benchmarks say so in their output). */
export const solverClockIsCpu = cpuClock;
