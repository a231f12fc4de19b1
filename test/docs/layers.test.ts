import { expect } from "chai";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../src/infra/repo-root.js";

/**
 * The layers the brief fixes, read from the source: bench -> src -> strategies, and no module
 * reaching back up or round in a circle. Type-only imports count too: they tie the modules'
 * meaning together just as much.
 */

const SCANNED = ["strategies", "src", "bench", "generated", "checker", "test/helpers"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Each scanned module's local imports, as repository paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SCANNED.flatMap(sources)) {
    const info = ts.preProcessFile(readFileSync(join(REPO_ROOT, file), "utf8"), true, true);
    const local = info.importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => resolve(REPO_ROOT, dirname(file), name).replace(/\.js$/, ".ts"))
      .filter((path) => existsSync(path))
      .map((path) => relative(REPO_ROOT, path));
    graph.set(file, local);
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan). */
function importCircles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      circle.push(w);
    } while (w !== v);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

function reaches(graph: Map<string, string[]>, from: string, to: string[]): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    if (!file.startsWith(from + "/")) continue;
    for (const target of imports) if (to.some((layer) => target.startsWith(layer + "/"))) found.push(`${file} -> ${target}`);
  }
  return found;
}

describe("the code's layers (bench -> src -> strategies, no import circles)", () => {
  const graph = importGraph();

  it("reads every layer's modules", () => {
    for (const layer of ["strategies", "src", "bench", "generated", "checker"]) {
      expect([...graph.keys()].filter((f) => f.startsWith(layer + "/")).length, layer).to.be.greaterThan(0);
    }
  });

  it("keeps the strategies free of the service, the benches and the tests", () => {
    expect(reaches(graph, "strategies", ["src", "bench", "test", "generated"])).to.deep.equal([]);
  });

  it("keeps the service free of the benches and the tests", () => {
    expect(reaches(graph, "src", ["bench", "test"])).to.deep.equal([]);
  });

  it("keeps the independent checker independent: it reads requests and answers, never the service's code or evaluator", () => {
    expect(reaches(graph, "checker", ["src", "strategies", "bench", "test"])).to.deep.equal([]);
  });

  it("has no import circle among the modules of strategies, src, bench, generated, the checker and the test helpers", () => {
    expect(importCircles(graph)).to.deep.equal([]);
  });

  it("would see a circle: the finder is checked on one made up here", () => {
    const made = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(importCircles(made)).to.deep.equal([["a.ts", "b.ts", "c.ts"]]);
  });
});
