import { loadConfig } from "../config/load.js";
import { createLogger } from "../log/logger.js";
import { startWorker } from "../worker/start-worker.js";

const config = loadConfig();
const log = createLogger({ service: "vrp-worker", pid: process.pid }, config.logLevel);
const worker = await startWorker(config, log);
process.stdout.write(`READY ${worker.metricsUrl}\n`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    log.info("shutdown requested", { signal });
    worker.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error("shutdown failed", { err });
        process.exit(1);
      },
    );
  });
}
