/**
 * Mocha setup: property tests that name no seed of their own draw from one fixed seed, so a run
 * of the suite is reproducible and a test's count of checked cases cannot fall below its bar by
 * chance. FC_SEED=N explores other draws. Both of fast-check's builds are configured: test files
 * compiled as CommonJS load its CommonJS build, ES modules its ES build.
 */
import { createRequire } from "node:module";
import fc from "fast-check";

const seed = Number(process.env.FC_SEED ?? 20261125);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
const commonJs = createRequire(import.meta.url)("fast-check") as typeof fc;
commonJs.configureGlobal({ ...commonJs.readConfigureGlobal(), seed });
