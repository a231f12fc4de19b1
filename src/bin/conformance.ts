// npm run conformance -- PATH: the strategy conformance kit (src/cli/conformance.ts).
import { main } from "../cli/conformance.js";

await main();
