import { loadConfig } from "../config/load.js";
import { createLogger, READY_MESSAGE } from "../log/logger.js";
import { startWorker } from "../worker/start-worker.js";
import { stopOnSignal } from "./stop-on-signal.js";

const config = loadConfig();
const log = createLogger({ service: "vrp-worker", pid: process.pid }, config.logLevel);
const worker = await startWorker(config, log);
log.announce(READY_MESSAGE, { url: worker.metricsUrl });
stopOnSignal(worker.stop, log);
