/**
 * STRATEGY_MODULES: comma-separated strategy modules (folder or file paths, relative to the working
 * directory, or installed npm package names) that the API, the workers' solver threads and
 * vrp-solve load at start, beside the built-in strategies.
 */
export function strategyModulesFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.STRATEGY_MODULES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
