/**
 * Builds the API reference page (/docs, reference/) into dist/reference/: Swagger UI's prebuilt
 * bundle and stylesheet from the npm package swagger-ui-dist, copied as they are, and the page's
 * own small script bundled by esbuild. `make run` and `make test` call it when the page is
 * missing or stale; `npm run build:reference` by hand. Nothing is loaded from elsewhere.
 */
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForBrowser } from "./browser-bundle.js";

const root = fileURLToPath(new URL("../", import.meta.url));
export const REFERENCE_OUT = join(root, "dist", "reference");
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

export async function buildReference(): Promise<void> {
  mkdirSync(REFERENCE_OUT, { recursive: true });
  for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) copyFileSync(join(swaggerUiDir, file), join(REFERENCE_OUT, file));
  await bundleForBrowser("reference", join(root, "reference", "src", "main.ts"), REFERENCE_OUT, "iife");
  copyFileSync(join(root, "reference", "reference.css"), join(REFERENCE_OUT, "reference.css"));
  copyFileSync(join(root, "playground", "favicon.svg"), join(REFERENCE_OUT, "favicon.svg"));
  // The page last: its presence is what `make` checks, so a failed build is retried.
  copyFileSync(join(root, "reference", "index.html"), join(REFERENCE_OUT, "index.html"));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildReference();
  const size = (f: string) => `${(statSync(join(REFERENCE_OUT, f)).size / 1024).toFixed(0)} KiB`;
  process.stdout.write(
    `API reference built in dist/reference/: swagger-ui-bundle.js ${size("swagger-ui-bundle.js")}, reference.js ${size("reference.js")}\n`,
  );
}
