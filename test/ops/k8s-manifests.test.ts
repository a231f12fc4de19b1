import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
import { REPO_ROOT } from "../../src/infra/repo-root.js";

const DIR = join(REPO_ROOT, "deploy/k8s");

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

type Model = new (data: never) => { validate(): void };

/**
 * The schema model of every kind the manifests use; a kind not listed here fails the test. The
 * model packages are ES modules only (no `require` export), hence the dynamic imports.
 */
async function loadModels(): Promise<Record<string, Model>> {
  const [core, apps, policy, keda, monitoring] = await Promise.all([
    import("kubernetes-models/v1"),
    import("kubernetes-models/apps/v1"),
    import("kubernetes-models/policy/v1"),
    import("@kubernetes-models/keda/keda.sh/v1alpha1"),
    import("@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1"),
  ]);
  return {
    "v1/Namespace": core.Namespace,
    "v1/ConfigMap": core.ConfigMap,
    "v1/Service": core.Service,
    "apps/v1/Deployment": apps.Deployment,
    "apps/v1/StatefulSet": apps.StatefulSet,
    "policy/v1/PodDisruptionBudget": policy.PodDisruptionBudget,
    "keda.sh/v1alpha1/ScaledObject": keda.ScaledObject,
    "monitoring.coreos.com/v1/ServiceMonitor": monitoring.ServiceMonitor,
    "monitoring.coreos.com/v1/PrometheusRule": monitoring.PrometheusRule,
  } as Record<string, Model>;
}

const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
const manifests: Manifest[] = files.flatMap((f) => yaml.loadAll(readFileSync(join(DIR, f), "utf8")).filter(Boolean) as Manifest[]);
const find = (kind: string, name: string) => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  expect(found, `${kind} ${name}`).to.not.equal(undefined);
  return found!;
};

type Container = {
  name: string;
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
};
type PodSpec = {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
};
const podSpec = (m: Manifest) => (m.spec as { template: { spec: PodSpec; metadata: { labels: Record<string, string> } } }).template;

describe("deploy/k8s manifests (schema-checked, not applied: no cluster here)", () => {
  let MODELS: Record<string, Model>;
  before(async () => {
    MODELS = await loadModels();
  });

  it("every document is a known kind that validates against its Kubernetes or CRD schema", () => {
    expect(manifests.length).to.be.greaterThan(10);
    for (const m of manifests) {
      const Model = MODELS[`${m.apiVersion}/${m.kind}`];
      expect(Model, `no schema model for ${m.apiVersion} ${m.kind}`).to.not.equal(undefined);
      expect(() => new Model!(m as never).validate(), `${m.kind} ${m.metadata.name}`).to.not.throw();
      if (m.kind !== "Namespace") expect(m.metadata.namespace, `${m.kind} ${m.metadata.name}`).to.equal("vrp");
    }
  });

  it("the schema check catches a broken manifest", () => {
    const broken = structuredClone(find("Deployment", "vrp-api")) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = "two";
    expect(() => new MODELS["apps/v1/Deployment"]!(broken as never).validate()).to.throw();
  });

  it("kustomization.yaml lists every manifest file", () => {
    const kustomization = yaml.load(readFileSync(join(DIR, "kustomization.yaml"), "utf8")) as { resources: string[] };
    expect([...kustomization.resources].sort()).to.deep.equal([...files].sort());
  });

  it("API and worker pods: the role as argument, probes on the service's own endpoints, non-root, a budget each", () => {
    const probes = { "vrp-api": ["api", "http", 8080], "vrp-worker": ["worker", "metrics", 9464] } as const;
    for (const [name, [role, port, number]] of Object.entries(probes)) {
      const template = podSpec(find("Deployment", name));
      const container = template.spec.containers[0]!;
      expect(container.args).to.deep.equal([role]);
      expect(container.ports!.find((p) => p.name === port)?.containerPort).to.equal(number);
      expect(container.readinessProbe?.httpGet).to.deep.equal({ path: "/readyz", port });
      expect(container.livenessProbe?.httpGet).to.deep.equal({ path: "/healthz", port });
      expect(template.spec.securityContext).to.include({ runAsNonRoot: true, runAsUser: 10001 });
      const pdb = find("PodDisruptionBudget", name).spec as { selector: { matchLabels: Record<string, string> } };
      expect(template.metadata.labels).to.include(pdb.selector.matchLabels);
    }
  });

  it("the pods' grace period outlasts the drain settings, so Kubernetes never kills a draining process", () => {
    const config = find("ConfigMap", "vrp-config").data!;
    const apiGrace = podSpec(find("Deployment", "vrp-api")).spec.terminationGracePeriodSeconds! * 1000;
    const workerGrace = podSpec(find("Deployment", "vrp-worker")).spec.terminationGracePeriodSeconds! * 1000;
    expect(apiGrace).to.be.greaterThan(Number(config.API_DRAIN_DELAY_MS) + Number(config.API_DRAIN_TIMEOUT_MS));
    expect(workerGrace).to.be.greaterThan(Number(config.WORKER_SHUTDOWN_GRACE_MS));
    expect(config.NATS_REPLICAS).to.equal("3");
  });

  it("KEDA scales the worker Deployment on the backlog of every account's flow (the API's vrp_queue_depth)", () => {
    const spec = find("ScaledObject", "vrp-worker").spec as {
      scaleTargetRef: { name: string };
      triggers: { type: string; metadata: Record<string, string> }[];
    };
    expect(spec.scaleTargetRef.name).to.equal("vrp-worker");
    expect(spec.triggers[0]!.type).to.equal("prometheus");
    expect(spec.triggers[0]!.metadata).to.include({ query: "max(vrp_queue_depth)", threshold: "10" });
    expect(spec.triggers[0]!.metadata.serverAddress).to.match(/^http:\/\/[a-z0-9.-]+:9090$/);
  });

  it("the ServiceMonitor selects the API and worker Services by the ports they name", () => {
    const monitor = find("ServiceMonitor", "vrp-solve").spec as {
      selector: { matchExpressions: { values: string[] }[] };
      endpoints: { port: string }[];
    };
    const selected = monitor.selector.matchExpressions[0]!.values;
    for (const [service, port] of [
      ["vrp-api", "http"],
      ["vrp-worker-metrics", "metrics"],
    ] as const) {
      const s = find("Service", service);
      expect(selected).to.include(s.metadata.labels!["app.kubernetes.io/name"]);
      expect((s.spec as { ports: { name: string }[] }).ports.map((p) => p.name)).to.include(port);
      expect(monitor.endpoints.map((e) => e.port)).to.include(port);
    }
  });

  it("the NATS StatefulSet has three nodes whose routes match its headless Service and pod names", () => {
    const set = find("StatefulSet", "vrp-nats").spec as { replicas: number; serviceName: string };
    expect(set.replicas).to.equal(3);
    expect(set.serviceName).to.equal("vrp-nats-headless");
    const conf = find("ConfigMap", "vrp-nats-config").data!["nats.conf"]!;
    for (let i = 0; i < 3; i++) expect(conf).to.include(`nats-route://vrp-nats-${i}.vrp-nats-headless:6222`);
    expect(find("ConfigMap", "vrp-config").data!.NATS_URL!.split(",")).to.have.length(3);
  });

  it("the PrometheusRule holds exactly the groups of deploy/alert-rules.yml", () => {
    const rules = yaml.load(readFileSync(join(REPO_ROOT, "deploy/alert-rules.yml"), "utf8")) as { groups: unknown[] };
    expect((find("PrometheusRule", "vrp-solve").spec as { groups: unknown[] }).groups).to.deep.equal(rules.groups);
  });
});
