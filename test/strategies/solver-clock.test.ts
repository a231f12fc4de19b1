import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";

/**
 * The solver clock counts CPU time only in a process that asked for it (benchmarks on a busy
 * machine, through bench/settings-env.ts and SOLVER_CLOCK=cpu), and wall time otherwise, whatever
 * the environment says to the solver itself: a child process sleeps 300 ms and reports how far
 * the clock moved.
 */
function clockAdvanceOverSleep(env: NodeJS.ProcessEnv, setup: string): number {
  const script = `
    import { solverNow } from "./strategies/core/clock.ts";
    ${setup}
    const before = solverNow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log(solverNow() - before);`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return Number(out.trim());
}

describe("solver clock (strategies/core/clock.ts)", () => {
  it("is wall time by default, SOLVER_CLOCK=cpu in the environment notwithstanding: a 300 ms sleep advances it by about 300 ms", () => {
    const advance = clockAdvanceOverSleep({ SOLVER_CLOCK: "cpu" }, "");
    assert.ok(advance >= 290, `advanced ${advance} ms`);
  });

  it("is CPU time after useCpuClock(): a sleep advances it by far less than its length", () => {
    const advance = clockAdvanceOverSleep({ SOLVER_CLOCK: "" }, `import { useCpuClock } from "./strategies/core/clock.ts"; useCpuClock();`);
    assert.ok(advance >= 0 && advance < 150, `advanced ${advance} ms`);
  });

  it("is CPU time in a benchmark run with SOLVER_CLOCK=cpu (bench/settings-env.ts), wall time without", () => {
    const bench = `await import("./bench/settings-env.ts");`;
    const cpu = clockAdvanceOverSleep({ SOLVER_CLOCK: "cpu" }, bench);
    assert.ok(cpu >= 0 && cpu < 150, `advanced ${cpu} ms`);
    const wall = clockAdvanceOverSleep({ SOLVER_CLOCK: "" }, bench);
    assert.ok(wall >= 290, `advanced ${wall} ms`);
  });
});
