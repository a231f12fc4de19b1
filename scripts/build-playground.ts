/**
 * Builds the route playground (playground/) into dist/playground/: one minified ES module, one
 * stylesheet and the page. `make run` and `make test` call it when the bundle is missing or stale;
 * `npm run build:playground` by hand. Prints the bundle sizes (kept small: no framework).
 */
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForBrowser } from "./browser-bundle.js";

const root = fileURLToPath(new URL("../", import.meta.url));
export const PLAYGROUND_OUT = join(root, "dist", "playground");

export async function buildPlayground(): Promise<void> {
  mkdirSync(PLAYGROUND_OUT, { recursive: true });
  await bundleForBrowser("app", join(root, "playground", "src", "main.ts"), PLAYGROUND_OUT, "esm");
  copyFileSync(join(root, "playground", "style.css"), join(PLAYGROUND_OUT, "app.css"));
  copyFileSync(join(root, "playground", "favicon.svg"), join(PLAYGROUND_OUT, "favicon.svg"));
  // The page last: its presence is what `make` checks, so a failed build is retried.
  copyFileSync(join(root, "playground", "index.html"), join(PLAYGROUND_OUT, "index.html"));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPlayground();
  const size = (f: string) => `${(statSync(join(PLAYGROUND_OUT, f)).size / 1024).toFixed(1)} KiB`;
  process.stdout.write(`playground built in dist/playground/: app.js ${size("app.js")}, app.css ${size("app.css")}\n`);
}
