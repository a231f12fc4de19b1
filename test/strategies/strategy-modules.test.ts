import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strategyModulesFromEnv } from "../../src/config/strategy-modules.js";
import { allStrategies, findStrategy, loadStrategyModules, strategyNames } from "../../strategies/registry.js";

/** A strategy module's source: `exportsLine` decides what it exports (see strategies/plugin-module.ts). */
function source(exportsLine: string): string {
  return `
const make = (name, kind = "construction") => ({
  name, kind, features: ["capacities"],
  supports: () => ({ ok: true }),
  solve: (p) => ({ routes: Array.from({ length: p.vehicleCount }, () => []) }),
});
${exportsLine}
`;
}

describe("strategy modules (STRATEGY_MODULES, loadStrategyModules)", () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const loadError = async (spec: string) => {
    try {
      await loadStrategyModules([spec], dir);
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error(`loading '${spec}' did not fail`);
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "strategy-modules-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reads STRATEGY_MODULES as a comma-separated list", () => {
    expect(strategyModulesFromEnv({ STRATEGY_MODULES: " ./a, pkg-b ,,/abs/c " })).to.deep.equal(["./a", "pkg-b", "/abs/c"]);
    expect(strategyModulesFromEnv({})).to.deep.equal([]);
  });

  it("loads a folder through its package.json exports, once however often it is named", async () => {
    write("folder/package.json", JSON.stringify({ type: "module", exports: { ".": { import: "./src/main.js" } } }));
    write("folder/src/main.js", source(`export default make("mod-folder"); export const helper = 1;`));
    const loaded = await loadStrategyModules(["./folder"], dir);
    expect(loaded.map((s) => s.name)).to.deep.equal(["mod-folder"]);
    await loadStrategyModules([join(dir, "folder")], dir);
    expect(strategyNames().filter((n) => n === "mod-folder")).to.have.length(1);
    expect(findStrategy("mod-folder").kind).to.equal("construction");
    expect(
      allStrategies()
        .slice(0, 6)
        .map((s) => s.name),
    ).to.deep.equal(["clarke-wright", "sweep", "alns", "hgs", "large", "exact"]);
  });

  it("loads a file's default array and its `strategies` array, and an installed package by name", async () => {
    write(
      "many.mjs",
      source(`export default [make("mod-one"), make("mod-two")]; export const strategies = [make("mod-three", "search")];`),
    );
    write("node_modules/vrp-mod-pkg/package.json", JSON.stringify({ name: "vrp-mod-pkg", type: "module", main: "lib.js" }));
    write("node_modules/vrp-mod-pkg/lib.js", source(`export default make("mod-pkg");`));
    const loaded = await loadStrategyModules(["many.mjs", "vrp-mod-pkg"], dir);
    expect(loaded.map((s) => s.name)).to.deep.equal(["mod-one", "mod-two", "mod-three", "mod-pkg"]);
  });

  it("says which module failed, and why", async () => {
    expect(await loadError("./missing")).to.match(/^strategy module '.\/missing': no such file or folder/);
    expect(await loadError("no-such-package")).to.equal(
      "strategy module 'no-such-package': not a file or folder, and no installed package of that name (npm install it, or give a path)",
    );
    write("none.mjs", source(`export const helper = make("mod-unexported");`));
    expect(await loadError("./none.mjs")).to.equal(
      "strategy module './none.mjs' exports no strategy: export one as the default export, or an array named 'strategies'",
    );
    write("clash.mjs", source(`export default make("hgs");`));
    expect(await loadError("./clash.mjs")).to.equal(
      "strategy module './clash.mjs': a strategy named 'hgs' is already registered (a built-in strategy); rename it",
    );
    write("kindless.mjs", source(`export default { ...make("mod-kindless"), kind: "heuristic" };`));
    expect(await loadError("./kindless.mjs")).to.include(
      `the default export is not a strategy: 'mod-kindless' must declare kind "construction", "search" or "exact"`,
    );
    write("shouting.mjs", source(`export default make("Shouting");`));
    expect(await loadError("./shouting.mjs")).to.include("'name' must be a kebab-case string");
    write("broken.mjs", `throw new Error("boom");`);
    expect(await loadError("./broken.mjs")).to.equal("strategy module './broken.mjs' failed to load: boom");
    write("bad-entry/package.json", JSON.stringify({ main: "gone.js" }));
    expect(await loadError("./bad-entry")).to.match(/^strategy module '.\/bad-entry': its entry gone.js does not exist/);
  });
});
