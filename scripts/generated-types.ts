import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BANNER } from "./banner.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const GENERATED_FILE = join(ROOT, "generated/api.ts");

/** What `npm run gen` would write now: the same CLI and options, into a temporary file. */
export function expectedGeneratedTypes(): string {
  const dir = mkdtempSync(join(tmpdir(), "vrp-gen-"));
  try {
    const out = join(dir, "api.ts");
    execFileSync(
      join(ROOT, "node_modules/.bin/openapi-typescript"),
      ["openapi/solve-api.openapi.json", "-o", out, "--default-non-nullable", "false"],
      { cwd: ROOT, stdio: "pipe" },
    );
    return BANNER + readFileSync(out, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function currentGeneratedTypes(): string {
  return readFileSync(GENERATED_FILE, "utf8");
}
