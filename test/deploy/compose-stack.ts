import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../src/infra/free-port.js";
import { REPO_ROOT } from "../../src/infra/repo-root.js";

const exec = promisify(execFile);

/** Runs a command and returns its stdout; a failure carries the command and its stderr. */
export async function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 300_000): Promise<string> {
  try {
    const { stdout } = await exec(cmd, args, { env, cwd: REPO_ROOT, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} failed: ${e.stderr?.trim() || e.message}`);
  }
}

/**
 * The test's private subnet for the stack's network, which the services trust as a callback
 * target (CALLBACK_ALLOWED_NETWORKS), as an operator with a receiver inside the cluster would:
 * the workers call back the receiver on the host's side of the bridge (its gateway).
 */
const SUBNET = "172.30.99.0/24";
export const GATEWAY = "172.30.99.1";

/**
 * deploy/compose.yaml under its own project name, on free host ports, with the test's settings
 * in an override file (the plans of test/fixtures, no busy threshold), driven by docker-compose.
 */
export class ComposeStack {
  readonly project = `vrp-deploy-test-${process.pid}`;
  private readonly dir = mkdtempSync(join(tmpdir(), "vrp-deploy-"));
  env: NodeJS.ProcessEnv = {};
  apiPorts: number[] = [];
  natsPorts: number[] = [];
  prometheusPort = 0;

  async up(workers: number): Promise<void> {
    this.apiPorts = [await freePort(), await freePort()];
    this.natsPorts = [await freePort(), await freePort(), await freePort()];
    this.prometheusPort = await freePort();
    const serviceEnv = {
      PLANS_FILE: "/etc/vrp/plans.json",
      BUSY_QUEUE_THRESHOLD: "100000",
      LOG_LEVEL: "warn",
      CALLBACK_ALLOWED_NETWORKS: SUBNET,
    };
    const mounts = [`${join(REPO_ROOT, "test/fixtures/plans.json")}:/etc/vrp/plans.json:ro`];
    const override = {
      services: Object.fromEntries(["api-1", "api-2", "worker"].map((s) => [s, { environment: serviceEnv, volumes: mounts }])),
      networks: { default: { ipam: { config: [{ subnet: SUBNET }] } } },
    };
    writeFileSync(join(this.dir, "override.yaml"), JSON.stringify(override, null, 2));
    this.env = {
      ...process.env,
      API_1_PORT: String(this.apiPorts[0]),
      API_2_PORT: String(this.apiPorts[1]),
      NATS_1_PORT: String(this.natsPorts[0]),
      NATS_2_PORT: String(this.natsPorts[1]),
      NATS_3_PORT: String(this.natsPorts[2]),
      PROMETHEUS_PORT: String(this.prometheusPort),
    };
    await this.compose(["up", "-d", "--scale", `worker=${workers}`]);
    await this.waitHealthy();
  }

  compose(args: string[], timeoutMs = 300_000): Promise<string> {
    return run(
      "docker-compose",
      ["-p", this.project, "-f", join(REPO_ROOT, "deploy/compose.yaml"), "-f", join(this.dir, "override.yaml"), ...args],
      this.env,
      timeoutMs,
    );
  }

  /** Waits until every container of the project is running and healthy. */
  waitHealthy(timeoutS = 180): Promise<string> {
    return run(join(REPO_ROOT, "scripts/deploy/wait-healthy.sh"), [this.project, String(timeoutS)], this.env, (timeoutS + 30) * 1000);
  }

  /** Container ids of one service, oldest first. */
  async containers(service: string): Promise<string[]> {
    const out = await run("docker", [
      "ps",
      "-q",
      "--filter",
      `label=com.docker.compose.project=${this.project}`,
      "--filter",
      `label=com.docker.compose.service=${service}`,
    ]);
    return out.split("\n").filter(Boolean).reverse();
  }

  apiUrls(): string[] {
    return this.apiPorts.map((p) => `http://127.0.0.1:${p}`);
  }

  /** Log lines of every service container that report an unhandled error (for failure messages). */
  async unhandledErrors(): Promise<string> {
    const ids = (await run("docker", ["ps", "-aq", "--filter", `label=com.docker.compose.project=${this.project}`]))
      .split("\n")
      .filter(Boolean);
    const lines: string[] = [];
    for (const id of ids) {
      const logs = await exec("docker", ["logs", id], { maxBuffer: 64 * 1024 * 1024 }).then(
        (r) => r.stdout + r.stderr,
        () => "",
      );
      lines.push(...logs.split("\n").filter((l) => l.includes('"unhandled error"')));
    }
    return lines.slice(0, 5).join("\n");
  }

  /** What the project still owns in the engine: containers, networks and volumes. */
  async leftovers(): Promise<string[]> {
    const label = `label=com.docker.compose.project=${this.project}`;
    const lists = await Promise.all([
      run("docker", ["ps", "-aq", "--filter", label]),
      run("docker", ["network", "ls", "-q", "--filter", label]),
      run("docker", ["volume", "ls", "-q", "--filter", label]),
    ]);
    return lists.flatMap((out, i) =>
      out
        .split("\n")
        .filter(Boolean)
        .map((id) => `${["container", "network", "volume"][i]} ${id}`),
    );
  }

  async down(): Promise<void> {
    await this.compose(["down", "--volumes", "--remove-orphans", "--timeout", "30"]);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
