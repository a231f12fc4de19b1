import { loadConfig } from "../config/load.js";
import { createLogger, READY_MESSAGE } from "../log/logger.js";
import { startApi } from "../api/server.js";
import { stopOnSignal } from "./stop-on-signal.js";

const config = loadConfig();
const log = createLogger({ service: "vrp-api", pid: process.pid }, config.logLevel);
const api = await startApi(config, log);
// The parent (make run, tests) waits for this line on stdout to know the API is up; like every
// log line it is one JSON object.
log.announce(READY_MESSAGE, { url: api.url });
stopOnSignal(api.stop, log);
