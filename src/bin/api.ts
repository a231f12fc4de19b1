import { loadConfig } from "../config/load.js";
import { createLogger } from "../log/logger.js";
import { startApi } from "../api/server.js";
import { stopOnSignal } from "./stop-on-signal.js";

const config = loadConfig();
const log = createLogger({ service: "vrp-api", pid: process.pid }, config.logLevel);
const api = await startApi(config, log);
// The parent (make run, tests) waits for this exact line on stdout to know the API is up.
process.stdout.write(`READY ${api.url}\n`);
stopOnSignal(api.stop, log);
