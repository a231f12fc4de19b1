/**
 * The solver's clock in milliseconds: every deadline and time share in `strategies/` is read from
 * it. Wall time (performance.now()) everywhere, except in a process that called useCpuClock():
 * then it is this process's CPU time. Benchmarks do that on a busy machine
 * (`SOLVER_CLOCK=cpu npm run bench -- ...`, bench/settings-env.ts), so that each solve gets the
 * same computing time it would get alone and figures from a loaded run stay comparable. The
 * service never does: the worker's process also runs its NATS client and other solves, whose CPU
 * time would count.
 */
let cpuClock = false;

/**
 * Wall milliseconds between two real readings of the CPU clock. On a loaded machine a wall
 * millisecond holds a small part of a CPU millisecond, so a shorter spacing reads the clock many
 * times per CPU millisecond of search; ten is still far below any budget's resolution.
 */
const CPU_READ_EVERY_MS = 10;
let lastWall = Number.NEGATIVE_INFINITY;
let lastCpu = 0;

/**
 * process.cpuUsage() is a system call: read on every stop check it took a noticeable share of a
 * search's time in a profile, which the wall clock does not cost. So it is read at
 * most once per CPU_READ_EVERY_MS of wall time and the last reading is returned in between: the
 * clock never runs ahead of the CPU time nor goes back, and a deadline is noticed at most that
 * much wall time late.
 */
function cpuMs(): number {
  const wall = performance.now();
  if (wall - lastWall < CPU_READ_EVERY_MS) return lastCpu;
  const used = process.cpuUsage();
  lastWall = wall;
  lastCpu = (used.user + used.system) / 1000;
  return lastCpu;
}

export function solverNow(): number {
  return cpuClock ? cpuMs() : performance.now();
}

/** From now on this process's solver clock is its CPU time (benchmarks only, see above). */
export function useCpuClock(): void {
  cpuClock = true;
}

/** Whether the clock is CPU time (benchmarks say so in their output). */
export function solverClockIsCpu(): boolean {
  return cpuClock;
}
