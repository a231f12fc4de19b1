import { alns } from "./alns/index.js";
import { clarkeWright } from "./clarke-wright/index.js";
import { exact } from "./exact/index.js";
import type { Strategy } from "./core/strategy.js";
import { sweep } from "./sweep/index.js";
import { hgs } from "./hgs/index.js";
import { large } from "./large/index.js";
import { resolveStrategyModule, strategiesOf } from "./plugin-module.js";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The built-in strategies. Others come from strategy modules (STRATEGY_MODULES, loadStrategyModules). */
export const STRATEGIES: readonly Strategy[] = [clarkeWright, sweep, alns, hgs, large, exact];

/** Strategies loaded at run time from strategy modules, in the order they were loaded. */
const LOADED: Strategy[] = [];

/** Adds one strategy; a name already taken (built in or loaded) is an error, the same object again is not. */
export function registerStrategy(strategy: Strategy): void {
  const taken = allStrategies().find((s) => s.name === strategy.name);
  if (taken === strategy) return;
  if (taken) {
    const owner = STRATEGIES.includes(taken) ? "a built-in strategy" : "a strategy loaded before";
    throw new Error(`a strategy named '${strategy.name}' is already registered (${owner}); rename it`);
  }
  LOADED.push(strategy);
}

/**
 * Imports each strategy module (see strategies/plugin-module.ts for what a spec may be and what
 * a module exports) and registers its strategies; returns them. Any module that cannot be loaded,
 * exports none, or reuses a taken name is an error naming its spec. Loading the same module
 * twice is harmless (the import is cached, and the same objects register once).
 */
export async function loadStrategyModules(specs: readonly string[], cwd = process.cwd()): Promise<Strategy[]> {
  const loaded: Strategy[] = [];
  for (const spec of specs) {
    const url = resolveStrategyModule(spec, cwd, dirname(fileURLToPath(import.meta.url)));
    let module: Record<string, unknown>;
    try {
      module = (await import(url)) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`strategy module '${spec}' failed to load: ${(err as Error).message}`);
    }
    for (const strategy of strategiesOf(module, spec)) {
      try {
        registerStrategy(strategy);
      } catch (err) {
        throw new Error(`strategy module '${spec}': ${(err as Error).message}`);
      }
      loaded.push(strategy);
    }
  }
  return loaded;
}

/** Every strategy this process can run: the built-in ones, then the loaded ones. */
export function allStrategies(): readonly Strategy[] {
  return [...STRATEGIES, ...LOADED];
}

export function strategyNames(): string[] {
  return allStrategies().map((s) => s.name);
}

export function findStrategy(name: string): Strategy {
  const found = allStrategies().find((s) => s.name === name);
  if (!found) throw new Error(`unknown strategy '${name}' (available: ${strategyNames().join(", ")})`);
  return found;
}
