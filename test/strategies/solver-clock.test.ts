import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";

/**
 * The solver clock counts CPU time only when SOLVER_CLOCK=cpu (benchmarks on a busy machine), and
 * wall time otherwise: a child process sleeps 300 ms and reports how far the clock moved.
 */
function clockAdvanceOverSleep(env: NodeJS.ProcessEnv): number {
  const script = `
    import { solverNow } from "./strategies/core/clock.ts";
    const before = solverNow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log(solverNow() - before);`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { env: { ...process.env, ...env }, encoding: "utf8" });
  return Number(out.trim());
}

describe("solver clock (strategies/core/clock.ts)", () => {
  it("is wall time by default: a 300 ms sleep advances it by about 300 ms", () => {
    const advance = clockAdvanceOverSleep({ SOLVER_CLOCK: "" });
    assert.ok(advance >= 290, `advanced ${advance} ms`);
  });

  it("is CPU time with SOLVER_CLOCK=cpu: a sleep advances it by far less than its length", () => {
    const advance = clockAdvanceOverSleep({ SOLVER_CLOCK: "cpu" });
    assert.ok(advance >= 0 && advance < 150, `advanced ${advance} ms`);
  });
});
