import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/service-process.js";
import { startStack, type Stack } from "../helpers/stack.js";

const readJson = (path: string) => JSON.parse(readFileSync(join(REPO_ROOT, path), "utf8")) as Record<string, Record<string, string>>;
const procText = (pid: number, file: "cmdline" | "environ") => readFileSync(`/proc/${pid}/${file}`, "utf8").split("\0").filter(Boolean);

describe("runtime: the pinned Node 24 and the compiled services", () => {
  it("runs the suite on the Node that tools/node pins, and package.json's engines admits exactly its major line", () => {
    const pinned = readJson("tools/node/package.json").dependencies!.node!;
    expect(process.version, "make test puts tools/node's Node first on PATH").to.equal(`v${pinned}`);
    const major = pinned.split(".")[0];
    expect(readJson("package.json").engines!.node).to.equal(`>=${major}.0.0`);
    expect(readJson("package.json").devDependencies!["@types/node"]!.split(".")[0]).to.equal(major);
  });

  describe("a started stack", function () {
    this.timeout(60_000);
    let stack: Stack;
    before(async () => {
      stack = await startStack({ workers: 1 });
    });
    after(async () => stack?.stop());

    it("runs the API and the worker as compiled JavaScript from dist/ on that Node, without a TypeScript loader", () => {
      for (const [service, entry] of [
        [stack.api, "api"],
        [stack.workers[0]!, "worker"],
      ] as const) {
        const argv = procText(service.child.pid!, "cmdline");
        expect(argv).to.deep.equal([process.execPath, join(REPO_ROOT, `dist/src/bin/${entry}.js`)]);
        const nodeOptions = procText(service.child.pid!, "environ").find((v) => v.startsWith("NODE_OPTIONS=")) ?? "";
        expect(nodeOptions).not.to.include("tsx");
      }
    });
  });
});
