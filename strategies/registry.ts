import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
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
  return allStrategies().map((s) => s.name);
}

export function findStrategy(name: string): Strategy {
  const found = STRATEGIES.find((s) => s.name === name) ?? PLUGINS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown strategy '${name}' (known: ${strategyNames().join(", ")})`);
  return found;
}

/** Built-in strategies, then the loaded ones. */
export function allStrategies(): readonly Strategy[] {
  return [...STRATEGIES, ...PLUGINS];
}

function isStrategy(value: unknown): value is Strategy {
  const s = value as Partial<Strategy> | null;
  if (typeof s !== "object" || s === null) return false;
  return typeof s.name === "string" && typeof s.supports === "function" && typeof s.solve === "function";
}

/**
 * The module a spec names: a folder path (relative to the working directory) through its
 * package.json `main` or index.js, else an installed package name.
 */
function moduleUrl(spec: string): string {
  const path = resolve(spec);
  if (!isAbsolute(spec) && !spec.startsWith(".") && !existsSync(path)) return spec;
  if (!existsSync(path)) throw new Error(`strategy module folder ${path} does not exist`);
  return pathToFileURL(createRequire(pathToFileURL(path + "/")).resolve(path)).href;
}

/**
 * Imports each module and registers every exported strategy (an object with name, supports and
 * solve; an exported array of them too); returns the strategies registered. Loading a module
 * twice registers its strategies once; two different strategies with one name are refused.
 */
export async function loadStrategyModules(specs: readonly string[]): Promise<Strategy[]> {
  const loaded: Strategy[] = [];
  for (const spec of specs) {
    const exports = (await import(moduleUrl(spec))) as Record<string, unknown>;
    const found = Object.values(exports).flatMap((value) => (Array.isArray(value) ? value : [value])).filter(isStrategy);
    if (found.length === 0) throw new Error(`strategy module '${spec}' exports no strategy (an object with name, supports and solve)`);
    for (const strategy of new Set(found)) {
      if (!PLUGINS.includes(strategy)) registerStrategy(strategy);
      loaded.push(strategy);
    }
  }
  return loaded;
}
