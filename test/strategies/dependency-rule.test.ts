import { expect } from "chai";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO_ROOT } from "../../src/infra/service-process.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Strategies see only the compiled problem and the evaluator: never the service or the wire types. */
describe("the strategies dependency rule", () => {
  it("keeps strategies/ free of imports from src/ and generated/, and of Math.random", () => {
    const offenders: string[] = [];
    for (const file of files(join(REPO_ROOT, "strategies"))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/from\s+"([^"]+)"/g)) {
        const target = match[1]!;
        // A relative import must stay inside strategies/ (folders nest, so count where it lands).
        const outside = target.startsWith(".") && relative(join(REPO_ROOT, "strategies"), resolve(dirname(file), target)).startsWith("..");
        if (/(^|\/)(src|generated)\//.test(target) || outside) offenders.push(`${relative(REPO_ROOT, file)} imports ${target}`);
      }
      if (/Math\.random/.test(text)) offenders.push(`${relative(REPO_ROOT, file)} uses Math.random`);
    }
    expect(offenders).to.deep.equal([]);
  });

  it("has no import circles in strategies/ (type imports included)", () => {
    const strategies = join(REPO_ROOT, "strategies");
    const graph = new Map<string, string[]>();
    for (const file of files(strategies)) {
      const text = readFileSync(file, "utf8");
      const targets = [...text.matchAll(/from\s+"(\.[^"]+)"/g)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")));
      graph.set(file, targets);
    }
    const state = new Map<string, number>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      state.set(file, 1);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 1) circles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(strategies, f)).join(" > "));
        else if (!state.has(next)) visit(next, [...path, next]);
      }
      state.set(file, 2);
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file, [file]);
    expect(circles).to.deep.equal([]);
  });
});
