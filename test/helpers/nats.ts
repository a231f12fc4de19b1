import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.js";
import { startNatsServer, type NatsServerProcess } from "../../src/infra/nats-server.js";
import { createLogger } from "../../src/log/logger.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";

export const quietLog = createLogger({ service: "test" }, "error", () => undefined);

/** A real nats-server in a temp dir, plus a factory for independent client connections. */
export async function withNats(): Promise<{ server: NatsServerProcess; connect(): Promise<Nats>; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "vrp-nats-"));
  const server = await startNatsServer({ storeDir: dir });
  const conns: Nats[] = [];
  return {
    server,
    connect: async () => {
      const conn = await connectNats(loadConfig({ ...process.env, NATS_URL: server.url }), "test", quietLog);
      conns.push(conn);
      return conn;
    },
    stop: async () => {
      await Promise.all(conns.map((c) => c.close().catch(() => undefined)));
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
