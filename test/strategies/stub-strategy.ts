import type { Strategy } from "../../strategies/core/strategy.js";

/** A stand-in search for tests of what runs around a strategy: it claims capacities only and accepts every problem. */
export function stubSearch(name: string, solve: Strategy["solve"]): Strategy {
  return { name, kind: "search", features: ["capacities"], supports: () => ({ ok: true }), solve };
}
