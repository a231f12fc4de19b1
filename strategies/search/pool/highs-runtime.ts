import * as highsPackage from "highs";
import type { Highs } from "highs";

type Loader = () => Promise<Highs>;
/**
 * The package's ES module exports the loader as its default; its type declarations describe the
 * CommonJS build, where that default sits one level deeper. Taken from whichever shape is loaded.
 */
function loaderOf(module: unknown): Loader {
  const first = (module as { default?: unknown }).default;
  if (typeof first === "function") return first as Loader;
  return (first as { default: Loader }).default;
}

/**
 * The HiGHS mixed-integer solver (npm `highs`: the University of Edinburgh's C++ solver compiled
 * to WebAssembly, MIT), loaded once per process when this module is first imported. Its loader is
 * asynchronous while the searches are synchronous, hence the top-level await: every importer
 * waits the ~50 ms of loading, and a search finds the solver ready. A failed load (no WebAssembly,
 * a damaged package) leaves `highsRuntime()` null and the searches run without set partitioning.
 *
 * A library rather than our own branch and bound: set partitioning over a few thousand routes
 * needs a real MIP solver (presolve, cuts, a primal heuristic) to finish in a second.
 */
let runtime: Highs | null = null;
try {
  runtime = await loaderOf(highsPackage)();
} catch {
  runtime = null;
}

export function highsRuntime(): Highs | null {
  return runtime;
}

/** After a solver error the runtime is not trusted again in this process (WebAssembly state may be broken). */
export function disableHighs(): void {
  runtime = null;
}
