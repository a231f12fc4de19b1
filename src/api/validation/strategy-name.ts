import type { ValidationIssue } from "../../errors/api-error.js";
import { strategyNames } from "../../../strategies/registry.js";

/**
 * A pinned `strategy` must name one this process loaded (built in, or from STRATEGY_MODULES): the
 * document says only that it is a kebab-case name, so adding a strategy never changes the contract.
 * Non-strings are left to the schema.
 */
export function strategyNameIssues(body: Record<string, unknown>): ValidationIssue[] {
  const name = body.strategy;
  if (typeof name !== "string" || name === "") return [];
  const known = strategyNames();
  if (known.includes(name)) return [];
  return [{ loc: ["body", "strategy"], msg: `unknown strategy '${name}'; available: ${known.join(", ")}`, type: "unknown_strategy" }];
}
