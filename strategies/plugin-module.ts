import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { STRATEGY_FEATURES, type Strategy } from "./core/strategy.js";

/**
 * Where a strategy module named in STRATEGY_MODULES lives, and what it exports. A spec is a path
 * (absolute, or relative to the working directory: a folder with a package.json, or one file) or
 * the name of an installed npm package (found in node_modules above the working directory or the
 * service's own folder). A folder's entry is its package.json `exports` ("." or the root, the
 * `import` or `default` condition), else its `main`, else index.js. Node's own resolvers do not fit:
 * require.resolve ignores the `import` condition, and import.meta.resolve cannot resolve from another
 * folder without an experimental flag.
 */
export function resolveStrategyModule(spec: string, cwd: string, serviceDir: string): string {
  const looksLikePath = spec.startsWith(".") || isAbsolute(spec) || existsSync(resolve(cwd, spec));
  if (looksLikePath) {
    const path = resolve(cwd, spec);
    if (!existsSync(path)) throw new Error(`strategy module '${spec}': no such file or folder (${path})`);
    return pathToFileURL(statSync(path).isDirectory() ? packageEntry(path, spec) : path).href;
  }
  for (const start of [cwd, serviceDir]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const candidate = join(dir, "node_modules", spec);
      if (existsSync(join(candidate, "package.json"))) return pathToFileURL(packageEntry(candidate, spec)).href;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(
    `strategy module '${spec}': not a file or folder, and no installed package of that name (npm install it, or give a path)`,
  );
}

function packageEntry(folder: string, spec: string): string {
  const manifest = join(folder, "package.json");
  if (!existsSync(manifest)) {
    const index = join(folder, "index.js");
    if (existsSync(index)) return index;
    throw new Error(`strategy module '${spec}': the folder has neither a package.json nor an index.js`);
  }
  let pkg: { exports?: unknown; main?: unknown };
  try {
    pkg = JSON.parse(readFileSync(manifest, "utf8")) as typeof pkg;
  } catch (err) {
    throw new Error(`strategy module '${spec}': cannot read its package.json: ${(err as Error).message}`);
  }
  const entry = exportsEntry(pkg.exports) ?? (typeof pkg.main === "string" ? pkg.main : "index.js");
  const path = resolve(folder, entry);
  if (!existsSync(path)) throw new Error(`strategy module '${spec}': its entry ${entry} does not exist (${path})`);
  return path;
}

/** The root entry of a package.json `exports` field, for an ES module import. */
function exportsEntry(exports: unknown): string | null {
  if (typeof exports === "string") return exports;
  if (typeof exports !== "object" || exports === null || Array.isArray(exports)) return null;
  const map = exports as Record<string, unknown>;
  const root = "." in map ? map["."] : Object.keys(map).some((k) => k.startsWith(".")) ? undefined : map;
  if (typeof root === "string") return root;
  if (typeof root === "object" && root !== null) {
    const conditions = root as Record<string, unknown>;
    for (const key of ["import", "node", "default"]) {
      const found = exportsEntry(conditions[key]);
      if (found) return found;
    }
  }
  return null;
}

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The strategies a module exports: its default export (one strategy or an array of them) and its
 * named `strategies` array. Any other export is ignored, so a module may export helpers freely.
 */
export function strategiesOf(module: Record<string, unknown>, spec: string): Strategy[] {
  const found: unknown[] = [];
  const take = (value: unknown, what: string) => {
    if (value === undefined) return;
    if (Array.isArray(value)) found.push(...value.map((v, i) => checkStrategy(v, `${what}[${i}]`, spec)));
    else found.push(checkStrategy(value, what, spec));
  };
  take(module.default, "the default export");
  if (module.strategies !== undefined && !Array.isArray(module.strategies)) {
    throw new Error(`strategy module '${spec}': its 'strategies' export must be an array of strategies`);
  }
  take(module.strategies, "strategies");
  const unique = [...new Set(found as Strategy[])];
  if (unique.length === 0) {
    throw new Error(`strategy module '${spec}' exports no strategy: export one as the default export, or an array named 'strategies'`);
  }
  return unique;
}

function checkStrategy(value: unknown, what: string, spec: string): Strategy {
  const bad = (why: string) => new Error(`strategy module '${spec}': ${what} is not a strategy: ${why}`);
  if (typeof value !== "object" || value === null) throw bad("not an object");
  const s = value as Partial<Strategy>;
  if (typeof s.name !== "string" || !KEBAB.test(s.name)) throw bad(`'name' must be a kebab-case string, got ${JSON.stringify(s.name)}`);
  if (typeof s.supports !== "function") throw bad(`'${s.name}' has no supports(problem) function`);
  if (typeof s.solve !== "function") throw bad(`'${s.name}' has no solve(problem, budget) function`);
  if (s.kind !== "construction" && s.kind !== "search" && s.kind !== "exact") {
    throw bad(`'${s.name}' must declare kind "construction", "search" or "exact", got ${JSON.stringify(s.kind)}`);
  }
  const unknown = Array.isArray(s.features) ? s.features.filter((f) => !(STRATEGY_FEATURES as readonly string[]).includes(f)) : null;
  if (!Array.isArray(s.features) || !s.features.includes("capacities") || unknown!.length > 0) {
    const unknownNote = unknown?.length ? ` (unknown: ${unknown.join(", ")})` : "";
    throw bad(`'${s.name}' must declare features: an array with "capacities" and any of ${STRATEGY_FEATURES.join(", ")}${unknownNote}`);
  }
  return s as Strategy;
}
