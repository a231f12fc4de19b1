import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/infra/free-port.js";

/** A real Prometheus (Debian package) scraping the given loopback targets every second. */
export async function startPrometheus(targets: string[]): Promise<{
  url: string;
  query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), "vrp-prom-"));
  const port = await freePort();
  writeFileSync(
    join(dir, "prometheus.yml"),
    `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - ` +
      `job_name: vrp\n    static_configs:\n      - targets: ` +
      `[${targets.map((t) => `"${t}"`).join(", ")}]\n`,
  );
  const child: ChildProcess = spawn(
    "prometheus",
    [`--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error("prometheus did not become ready");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    query: async (q) => {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = (await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      return body.data.result;
    },
    stop: async () => {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
