import { alns } from "./alns/index.js";
import { clarkeWright } from "./clarke-wright/index.js";
import { exact } from "./exact/index.js";
import type { Strategy } from "./core/strategy.js";
import { sweep } from "./sweep/index.js";
import { hgs } from "./hgs/index.js";
import { large } from "./large/index.js";

/** THE list of strategies. Adding one: a folder exporting a Strategy, and one line here. */
export const STRATEGIES: readonly Strategy[] = [clarkeWright, sweep, alns, hgs, large, exact];

/** Strategies loaded at run time from modules named in configuration (tests use this for faults). */
const PLUGINS: Strategy[] = [];

export function registerStrategy(strategy: Strategy): void {
  if (STRATEGIES.some((s) => s.name === strategy.name) || PLUGINS.some((s) => s.name === strategy.name)) {
    throw new Error(`a strategy named '${strategy.name}' is already registered`);
  }
  PLUGINS.push(strategy);
}

export function strategyNames(): string[] {
  return STRATEGIES.map((s) => s.name);
}

export function findStrategy(name: string): Strategy {
  const found = STRATEGIES.find((s) => s.name === name) ?? PLUGINS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown strategy '${name}' (known: ${strategyNames().join(", ")})`);
  return found;
}
