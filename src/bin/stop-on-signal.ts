import type { Logger } from "../log/logger.js";

/**
 * SIGTERM, SIGINT or SIGHUP (the terminal it ran in was closed) runs `stop` once (graceful
 * shutdown), then exits 0, or 1 if stopping failed. A second signal while stopping changes nothing.
 */
export function stopOnSignal(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info("shutdown requested", { signal });
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          log.error("shutdown failed", { err });
          process.exit(1);
        },
      );
    });
  }
}
