import { execFileSync } from "node:child_process";

/**
 * A small network of Linux network namespaces for the partition scenario: one namespace per NATS
 * node, each joined by a veth pair to a bridge on the host, which has an address on the bridge so
 * that the API instances, workers and the test (all on the host) reach every node. Cutting a node
 * takes its namespace's end of the veth down: its packets then vanish without a reset (the host
 * end loses its carrier and drops what is sent to it), as in a real partition, and the node itself
 * keeps running. Needs root (`ip netns`); `unavailable()` says why not when it cannot work.
 *
 * Names carry the test process's PID, and everything is removed by `destroy()`, which also runs
 * at process exit, so a failing or interrupted run leaves no namespace or link behind.
 */
export class NetworkLab {
  readonly hostAddress: string;
  private readonly tag = String(process.pid % 100_000);
  private readonly subnet: string;
  private created = false;
  private readonly onExit = () => this.destroy();
  /** Interrupted (Ctrl-C, a timeout's SIGTERM): mocha's after hooks will not run, so clean up here. */
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.destroy();
    process.kill(process.pid, signal);
  };

  constructor(private readonly nodes: number) {
    // One /24 per test process, in a private range unlikely to be routed on this machine.
    this.subnet = `10.213.${process.pid % 250}`;
    this.hostAddress = `${this.subnet}.254`;
  }

  /** Why namespaces cannot be used here (not root, no `ip`, no netns support), or null. */
  static unavailable(): string | null {
    if (typeof process.getuid !== "function" || process.getuid() !== 0)
      return "the partition needs root (network namespaces and veth links): run the fault suite as root";
    try {
      execFileSync("ip", ["netns", "list"], { stdio: "pipe" });
    } catch (err) {
      return `'ip netns' does not work here: ${err instanceof Error ? err.message : String(err)}`;
    }
    return null;
  }

  namespace(i: number): string {
    return `vrpf${this.tag}n${i}`;
  }

  address(i: number): string {
    return `${this.subnet}.${i + 1}`;
  }

  private bridge(): string {
    return `vrpf${this.tag}br`;
  }

  private hostEnd(i: number): string {
    return `vrpf${this.tag}h${i}`;
  }

  private nodeEnd(i: number): string {
    return `vrpf${this.tag}p${i}`;
  }

  create(): void {
    this.destroy();
    this.created = true;
    process.once("exit", this.onExit);
    process.once("SIGINT", this.onSignal);
    process.once("SIGTERM", this.onSignal);
    ip("link", "add", this.bridge(), "type", "bridge");
    ip("addr", "add", `${this.hostAddress}/24`, "dev", this.bridge());
    ip("link", "set", this.bridge(), "up");
    for (let i = 0; i < this.nodes; i++) {
      const ns = this.namespace(i);
      ip("netns", "add", ns);
      ip("link", "add", this.hostEnd(i), "type", "veth", "peer", "name", this.nodeEnd(i));
      ip("link", "set", this.nodeEnd(i), "netns", ns);
      ip("link", "set", this.hostEnd(i), "master", this.bridge());
      ip("link", "set", this.hostEnd(i), "up");
      ip("-n", ns, "addr", "add", `${this.address(i)}/24`, "dev", this.nodeEnd(i));
      ip("-n", ns, "link", "set", this.nodeEnd(i), "up");
      ip("-n", ns, "link", "set", "lo", "up");
    }
  }

  /** Cuts node i off: every packet to or from it is lost from now on. */
  cut(i: number): void {
    ip("-n", this.namespace(i), "link", "set", this.nodeEnd(i), "down");
  }

  heal(i: number): void {
    ip("-n", this.namespace(i), "link", "set", this.nodeEnd(i), "up");
  }

  /** Removes the namespaces, links and bridge (those that exist); never throws. */
  destroy(): void {
    if (!this.created) {
      // Left over by an earlier process with the same PID: remove quietly.
      for (let i = 0; i < this.nodes; i++) tryIp("netns", "del", this.namespace(i));
      tryIp("link", "del", this.bridge());
      return;
    }
    for (let i = 0; i < this.nodes; i++) {
      // The servers we started in it, should they still run (an interrupted run).
      for (const pid of tryIpOutput("netns", "pids", this.namespace(i)).split("\n").filter(Boolean)) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          /* gone */
        }
      }
      tryIp("link", "del", this.hostEnd(i));
      tryIp("netns", "del", this.namespace(i));
    }
    tryIp("link", "del", this.bridge());
    this.created = false;
    process.removeListener("exit", this.onExit);
    process.removeListener("SIGINT", this.onSignal);
    process.removeListener("SIGTERM", this.onSignal);
  }

  /** Namespaces and links of this lab still present (for the test of the clean-up). */
  leftovers(): string[] {
    const namespaces = execFileSync("ip", ["netns", "list"], { encoding: "utf8" });
    const links = execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" });
    const mine = `vrpf${this.tag}`;
    return [...namespaces.split("\n"), ...links.split("\n")].filter((l) => l.includes(mine));
  }
}

function ip(...args: string[]): void {
  execFileSync("ip", args, { stdio: "pipe" });
}

function tryIpOutput(...args: string[]): string {
  try {
    return execFileSync("ip", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return "";
  }
}

function tryIp(...args: string[]): void {
  try {
    ip(...args);
  } catch {
    /* already gone */
  }
}
