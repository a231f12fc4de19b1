/**
 * The travel families' reference costs (bench/instances/travel-families-SEED.json, per instance
 * name): the best plan any run has found, its long reference runs (travel-families.ts
 * `--write-reference`) and, when asked, the side-by-side runs of ours and PyVRP
 * (travel-side-by-side.ts `--update-reference`). A reference only ever improves.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The reference file of the instances drawn with `instanceSeed`. */
export function referencePath(instanceSeed: number): string {
  return join(fileURLToPath(new URL(".", import.meta.url)), "instances", `travel-families-${instanceSeed}.json`);
}

export function readReferences(instanceSeed: number): Record<string, number> {
  const path = referencePath(instanceSeed);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, number>) : {};
}

/**
 * Records `cost` for `name` when it improves on the stored reference. The file is read again just
 * before writing: runs on other families (another core) may have written meanwhile.
 */
export function recordReference(instanceSeed: number, name: string, cost: number): number {
  const latest = readReferences(instanceSeed);
  latest[name] = Math.min(cost, latest[name] ?? Number.POSITIVE_INFINITY);
  writeFileSync(referencePath(instanceSeed), JSON.stringify(latest, null, 1) + "\n");
  return latest[name]!;
}
