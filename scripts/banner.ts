// Prepends the do-not-edit banner to a file generated from the OpenAPI document.
import { readFileSync, writeFileSync } from "node:fs";

export const BANNER =
  "// DO NOT EDIT. Generated from openapi/solve-api.openapi.json by openapi-typescript (`npm run gen`).\n" +
  "// A test fails when this file is stale.\n\n";

const file = process.argv[2];
// Only when run as a script (npm run gen), not when imported for the staleness check.
if (file && import.meta.url === `file://${process.argv[1]}`) {
  const text = readFileSync(file, "utf8");
  if (!text.startsWith(BANNER)) writeFileSync(file, BANNER + text);
}
