// worker_threads do not inherit the parent's `--import tsx` loader on Node 20, so the solver
// thread registers it itself before loading its TypeScript entry point.
import { register } from "tsx/esm/api";
import { workerData } from "node:worker_threads";

register();
await import(workerData.entry);
