import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
import { loadConfig } from "../../src/config/load.js";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import { connectNats, type Nats } from "../../src/queue/connection.js";
import { NAMES } from "../../src/queue/names.js";
import { AccountStore } from "../../src/store/accounts.js";
import { quietLog } from "../helpers/nats.js";
import { checkNothingLost } from "../faults/checks.js";
import type { FaultCluster } from "../faults/cluster.js";
import { CallbackReceiver, submitLoad } from "../faults/load.js";
import { ComposeStack, GATEWAY, run } from "./compose-stack.js";

/** Submissions (DEPLOY_TASKS, default 1000), spread over both API instances. */
const TASKS = Number(process.env.DEPLOY_TASKS ?? 1000);
/** Gap between submissions (all clients together): by default the load lasts about 90 s, through every replacement. */
const PACE_MS = Number(process.env.DEPLOY_PACE_MS ?? 90_000 / TASKS);
const WORKERS = 2;
const IMAGES = ["vrp-solve", "vrp-nats", "vrp-prometheus"].map((i) => `${i}:${process.env.IMAGE_TAG ?? "latest"}`);

/**
 * make test-deploy: the images of `make image` in the compose stack of deploy/compose.yaml (three
 * NATS nodes, two APIs, two workers, Prometheus). Partners submit through both APIs with
 * callbacks to a receiver on this host while every worker and then every API is replaced one at a
 * time (SIGTERM through the engine, a new container started), then one NATS node is stopped and
 * started again. Nothing accepted may be lost, called back twice with another webhook-id, or
 * answered with a 5xx other than a 503 with Retry-After.
 */
/**
 * What a load balancer in front of the APIs does: it sends only to instances whose /readyz
 * answers 200 (polled every 250 ms), and to all of them when none does.
 */
class ReadinessBalancer {
  private ready: string[];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly urls: string[]) {
    this.ready = [...urls];
  }

  start(): void {
    const poll = async () => {
      const states = await Promise.all(
        this.urls.map((u) =>
          fetch(`${u}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
            (r) => r.ok,
            () => false,
          ),
        ),
      );
      this.ready = this.urls.filter((_, i) => states[i]);
      this.timer = setTimeout(() => void poll(), 250);
    };
    void poll();
  }

  live(): string[] {
    return this.ready.length > 0 ? this.ready : this.urls;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

describe("rolling upgrade of the compose stack under load (make test-deploy)", function () {
  this.timeout(1_800_000);
  const stack = new ComposeStack();
  const callbacks = new CallbackReceiver();
  let inspector: Nats | null = null;
  let headers: Record<string, string> = {};
  const steps: string[] = [];

  before(async () => {
    // A clear failure, not a skip: this suite exists to exercise a real engine.
    await run("docker", ["info", "--format", "{{.ServerVersion}}"]).catch((err: Error) => {
      throw new Error(
        `make test-deploy needs a running Docker engine (scripts/deploy/docker-engine.sh starts Debian's dockerd): ${err.message}`,
      );
    });
    for (const image of IMAGES)
      await run("docker", ["image", "inspect", image]).catch(() => {
        throw new Error(`image ${image} is missing: make test-deploy builds it with make image`);
      });
    await stack.up(WORKERS);
    await callbacks.start(GATEWAY);
    const natsUrl = stack.natsPorts.map((p) => `nats://127.0.0.1:${p}`).join(",");
    inspector = await connectNats(loadConfig({ NATS_URL: natsUrl, NATS_REPLICAS: "3" }), "deploy-inspector", quietLog);
    const accounts = new AccountStore(inspector.accounts, inspector.apiKeys);
    await accounts.createAccount("faults", "fuzz");
    const { key } = await accounts.createKey("faults");
    headers = { "content-type": "application/json", "x-user-name": "faults", "x-api-key": key };
  });

  after(async () => {
    callbacks.close();
    await inspector?.close().catch(() => undefined);
    // Also when a test failed: nothing of the project may outlive the suite.
    await stack.down().catch(() => undefined);
    stack.cleanup();
  });

  it("the images run as a non-root user", async () => {
    for (const image of IMAGES)
      expect((await run("docker", ["image", "inspect", "--format", "{{.Config.User}}", image])).trim(), image).to.equal("10001:10001");
    const [api] = await stack.containers("api-1");
    expect((await run("docker", ["exec", api!, "id", "-u"])).trim()).to.equal("10001");
  });

  it("the streams and buckets are replicated on the three nodes", async () => {
    for (const stream of [NAMES.taskStream, NAMES.eventStream, `KV_${NAMES.taskBucket}`, `KV_${NAMES.accountBucket}`]) {
      const info = await inspector!.jsm.streams.info(stream);
      expect(info.config.num_replicas, stream).to.equal(3);
      expect((info.cluster?.replicas ?? []).length, `${stream} followers`).to.equal(2);
    }
  });

  it("loses nothing while every worker and API is replaced one at a time and a NATS node restarts", async () => {
    let choreographyDone = false;
    let started!: () => void;
    const go = new Promise<void>((r) => (started = r));
    const choreography = go.then(async () => {
      const t0 = Date.now();
      const step = (what: string) => steps.push(`${((Date.now() - t0) / 1000).toFixed(1)} s ${what}`);
      try {
        for (const old of await stack.containers("worker")) {
          // docker stop: SIGTERM, the worker drains (stop_grace_period before a SIGKILL).
          await run("docker", ["stop", "--time", "40", old]);
          await run("docker", ["rm", old]);
          await stack.compose(["up", "-d", "--no-deps", "--no-recreate", "--scale", `worker=${WORKERS}`, "worker"]);
          await stack.waitHealthy();
          step(`worker ${old.slice(0, 12)} replaced`);
        }
        for (const api of ["api-1", "api-2"]) {
          // Recreate: SIGTERM to the running container (it drains), then a new one from the image.
          await stack.compose(["up", "-d", "--no-deps", "--force-recreate", api]);
          await stack.waitHealthy();
          step(`${api} replaced`);
        }
        await stack.compose(["stop", "nats-2"]);
        step("nats-2 stopped");
        await new Promise((r) => setTimeout(r, 5000));
        await stack.compose(["start", "nats-2"]);
        await stack.waitHealthy();
        step("nats-2 started again");
      } finally {
        choreographyDone = true;
      }
    });
    choreography.catch(() => undefined);

    const holdBack = Math.floor(TASKS * 0.9);
    const balancer = new ReadinessBalancer(stack.apiUrls());
    balancer.start();
    const loadStart = Date.now();
    const report = await submitLoad(
      () => balancer.live(),
      headers,
      TASKS,
      callbacks.url,
      async (i) => {
        if (i === Math.floor(TASKS * 0.05)) started();
        await new Promise((r) => setTimeout(r, Math.max(0, loadStart + i * PACE_MS - Date.now())));
        // The last tenth goes in once every replacement is over, so the load spans all of them.
        while (i >= holdBack && !choreographyDone) await new Promise((r) => setTimeout(r, 200));
      },
    );
    started();
    await choreography;
    balancer.stop();
    // The fault suite's checks, given what they read of a cluster: API URLs, headers, a NATS
    // connection and the services' unhandled errors (for a failure message).
    const errors = await stack.unhandledErrors();
    const cluster = { apiUrls: () => stack.apiUrls(), headers, nats: inspector!, unhandledErrors: () => errors } as unknown as FaultCluster;
    const summary = await checkNothingLost(cluster, report, new Set(), callbacks);
    console.log(`      ${summary}\n      ${steps.join("\n      ")}`);
    expect(steps).to.have.length(WORKERS + 4);
    // The APIs' drain: readiness went false before the listener closed, so a client that follows
    // readiness never had a connection refused or broken.
    expect(report.answers.get(0) ?? 0, "connections refused or broken").to.equal(0);
  });

  it("Prometheus scrapes every process (all targets up) and has every shipped rule loaded", async () => {
    const prometheus = `http://127.0.0.1:${stack.prometheusPort}`;
    let targets: { labels: { job: string; instance: string }; health: string; lastError: string }[] = [];
    const deadline = Date.now() + 90_000;
    for (;;) {
      const body = (await (await fetch(`${prometheus}/api/v1/targets?state=active`)).json()) as { data: { activeTargets: typeof targets } };
      targets = body.data.activeTargets;
      const up = targets.filter((t) => t.health === "up");
      if (up.length === targets.length && targets.length === 2 + WORKERS + 1) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect(targets.map((t) => `${t.labels.job} ${t.labels.instance} ${t.health} ${t.lastError}`).sort()).to.have.length(2 + WORKERS + 1);
    for (const t of targets) expect(t.health, `${t.labels.job} ${t.labels.instance}: ${t.lastError}`).to.equal("up");
    expect(targets.filter((t) => t.labels.job === "vrp-worker")).to.have.length(WORKERS);

    const shipped = yaml.load(readFileSync(join(REPO_ROOT, "deploy/alert-rules.yml"), "utf8")) as {
      groups: { rules: { alert?: string; record?: string }[] }[];
    };
    const names = shipped.groups.flatMap((g) => g.rules.map((r) => r.alert ?? r.record)).sort();
    const rules = (await (await fetch(`${prometheus}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string }[] }[] };
    };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name).sort()).to.deep.equal(names);
    for (const r of loaded) expect(r.health, r.name).to.not.equal("err");
  });

  it("compose down leaves no container, network or volume behind", async () => {
    callbacks.close();
    await inspector?.close();
    inspector = null;
    await stack.down();
    expect(await stack.leftovers()).to.deep.equal([]);
  });
});
