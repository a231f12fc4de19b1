/**
 * The one esbuild setting of the project's pages (the playground and the API reference): a single
 * minified bundle for today's browsers, nothing loaded from elsewhere at run time.
 */
import { build } from "esbuild";

/** Bundles `entry` into `outdir/<name>.js` as an ES module (`esm`) or a classic script (`iife`). */
export async function bundleForBrowser(name: string, entry: string, outdir: string, format: "esm" | "iife"): Promise<void> {
  await build({
    entryPoints: { [name]: entry },
    outdir,
    bundle: true,
    minify: true,
    format,
    target: "es2022",
    platform: "browser",
    legalComments: "none",
    logLevel: "warning",
  });
}
