/**
 * The solver the bench measures: the compiled build in dist/ (`make build`), the code the workers
 * run, not the TypeScript sources, so the bench's figures are the service's. The types come from
 * the sources the build is made from. Strategy modules (STRATEGY_MODULES) are registered with
 * this build's registry, the one its solveRequest looks names up in, and SOLVER_CLOCK=cpu
 * switches this build's clock.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../src/infra/repo-root.js";
import { BenchSetupError } from "./benchmark-folder.js";

type SolveModule = typeof import("../src/problem/solve-request.js");
type RegistryModule = typeof import("../strategies/registry.js");
type StrategyModulesConfig = typeof import("../src/config/strategy-modules.js");
type ClockModule = typeof import("../strategies/core/clock.js");

export interface CompiledSolver {
  solveRequest: SolveModule["solveRequest"];
  findStrategy: RegistryModule["findStrategy"];
  /** Whether time limits are counted in CPU seconds (SOLVER_CLOCK=cpu). */
  cpuClock: boolean;
}

const DIST = join(REPO_ROOT, "dist");

async function load<T>(path: string): Promise<T> {
  return (await import(pathToFileURL(join(DIST, path)).href)) as T;
}

/** The compiled solver with the strategy modules of STRATEGY_MODULES loaded. */
export async function compiledSolver(env: NodeJS.ProcessEnv = process.env): Promise<CompiledSolver> {
  if (!existsSync(join(DIST, "src", "problem", "solve-request.js"))) {
    throw new BenchSetupError(`bench: the compiled solver ${join(DIST, "src", "problem", "solve-request.js")} is missing: run make build`);
  }
  const [{ solveRequest }, { findStrategy, loadStrategyModules }, { strategyModulesFromEnv }, clock] = await Promise.all([
    load<SolveModule>("src/problem/solve-request.js"),
    load<RegistryModule>("strategies/registry.js"),
    load<StrategyModulesConfig>("src/config/strategy-modules.js"),
    load<ClockModule>("strategies/core/clock.js"),
  ]);
  const modules = strategyModulesFromEnv(env);
  try {
    await loadStrategyModules(modules);
  } catch (e) {
    throw new BenchSetupError(`bench: STRATEGY_MODULES (${modules.join(", ")}): ${(e as Error).message.split("\n")[0]}`);
  }
  if (env.SOLVER_CLOCK === "cpu") clock.useCpuClock();
  return { solveRequest, findStrategy, cpuClock: clock.solverClockIsCpu() };
}
