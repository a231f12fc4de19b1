import type { Logger } from "../log/logger.js";

/** SIGTERM or SIGINT runs `stop` once (graceful shutdown), then exits 0, or 1 if stopping failed. */
export function stopOnSignal(stop: () => Promise<void>, log: Logger): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
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
