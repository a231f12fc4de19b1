/**
 * STRATEGY_MODULES: the strategy modules to load beside the built-in strategies, as a
 * comma-separated list of folder paths or installed npm package names (empty: none).
 */
export function strategyModulesFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.STRATEGY_MODULES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
