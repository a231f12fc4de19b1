import { currentGeneratedTypes, expectedGeneratedTypes } from "./generated-types.js";

const fresh = expectedGeneratedTypes() === currentGeneratedTypes();
if (!fresh) {
  process.stderr.write("generated/api.ts is stale: run `npm run gen` and commit the result\n");
  process.exit(1);
}
process.stdout.write("generated/api.ts is up to date\n");
