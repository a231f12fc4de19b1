import { expect } from "chai";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/service-process.js";

/**
 * The documents' commands exist as written: every `npm run SCRIPT` names a script of package.json,
 * every `make TARGET` a target of the Makefile, every script file run with node exists, and every
 * `--flag` given to a bench script is one its argument parser declares. The long-running commands
 * themselves are not run here (benchmarks take minutes); the README's curl examples are run by
 * the test/e2e/readme*.test.ts files. The benchmarks log is history and keeps the commands of its day.
 */
const DOCUMENTS = [
  "README.md",
  "BENCHMARKS.md",
  ...readdirSync(join(REPO_ROOT, "docs"))
    .filter((f) => f.endsWith(".md") && f !== "benchmarks-log.md")
    .map((f) => `docs/${f}`),
];

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), "utf8");
const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
const makeTargets = new Set([...read("Makefile").matchAll(/^([a-z][a-z-]*):/gm)].map((m) => m[1]!));

/** Command lines of a markdown document: the lines of its sh blocks and its inline code spans that start with a command. */
export function commandLines(markdown: string): string[] {
  const lines: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) lines.push(...block[1]!.split("\n").filter((l) => l.trim() !== ""));
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  for (const span of prose.matchAll(/`([^`]+)`/g)) {
    const text = span[1]!.replace(/\s+/g, " ");
    if (/^((\w+=\S+ )*)(npm run|make |node |taskset |nice |SOLVER_CLOCK=)/.test(text)) lines.push(text);
  }
  return lines;
}

/** The simple commands of one line: comments dropped, split at ;, &&, |, parentheses and quotes. */
export function simpleCommands(line: string): string[][] {
  return line
    .replace(/\s#.*$/, "")
    .split(/;|&&|\|\||\||\(|\)|'/)
    .map((part) =>
      part
        .trim()
        .split(/\s+/)
        .filter((w) => w !== "" && w !== "[" && w !== "]"),
    )
    .map((words) => {
      // Environment assignments, and the pinning and priority wrappers, come before the command.
      let i = 0;
      for (;;) {
        if (/^[A-Z_][A-Z0-9_]*=/.test(words[i] ?? "")) i += 1;
        else if (words[i] === "taskset" && words[i + 1] === "-c") i += 3;
        else if (words[i] === "nice" && words[i + 1] === "-n") i += 3;
        else if (words[i] === "sh" && words[i + 1] === "-c") i += 2;
        else break;
      }
      return words.slice(i).map((w) => w.replace(/^\[|\]$/g, ""));
    })
    .filter((words) => words.length > 0);
}

/** The `--flags` a script file's parseArgs declares (null: the file parses no flags that way). */
function declaredFlags(file: string): Set<string> | null {
  const source = read(file);
  if (!source.includes("parseArgs(")) return null;
  return new Set([...source.matchAll(/(?:"([a-z][a-z-]*)"|\b([a-z][a-z-]*)): \{ type: "(?:string|boolean)"/g)].map((m) => m[1] ?? m[2]!));
}

/** The script file an npm script runs (its last .ts or .js file), if any. */
function scriptFile(script: string): string | null {
  const files = [...(scripts[script] ?? "").matchAll(/(\S+\.(?:ts|js|mjs))\b/g)].map((m) => m[1]!);
  return files.at(-1) ?? null;
}

/** What is wrong with one simple command, or null. */
function problem(words: string[]): string | null {
  let file: string | null = null;
  let args: string[] = [];
  if (words[0] === "npm" && words[1] === "run") {
    const rest = words.slice(2).filter((w) => w !== "-s");
    const script = rest[0]!;
    if (!(script in scripts)) return `no npm script '${script}' in package.json`;
    args = rest.slice(rest.indexOf("--") < 0 ? rest.length : rest.indexOf("--") + 1);
    // `npm run bench -- NAME ...` hands over to bench/NAME.ts (bench/run.ts's service benches).
    const subcommand = script === "bench" && args[0] && !args[0].startsWith("-") ? `bench/${args[0]}.ts` : null;
    file = subcommand && existsSync(join(REPO_ROOT, subcommand)) ? subcommand : scriptFile(script);
  } else if (words[0] === "make") {
    const target = words
      .slice(1)
      .find((w) => !w.includes("="))
      ?.replace(/:$/, "");
    if (target && !makeTargets.has(target)) return `no make target '${target}'`;
    return null;
  } else if (words[0] === "node") {
    const at = words.findIndex((w, i) => i > 0 && !w.startsWith("-") && words[i - 1] !== "--import");
    if (at < 0) return null;
    file = words[at]!;
    // A path outside the repository, a bare file name (a partner's own project) or a build output
    // (dist/, written by make) is not ours to check.
    if (file.startsWith("../") || !file.includes("/") || file.split("/").includes("dist") || !/\.(ts|js|mjs)$/.test(file)) return null;
    if (!existsSync(join(REPO_ROOT, file))) return `no file ${file}`;
    args = words.slice(at + 1);
  } else {
    return null;
  }
  const flags = file && existsSync(join(REPO_ROOT, file)) ? declaredFlags(file) : null;
  if (!flags) return null;
  const unknown = args
    .filter((a) => /^--[a-z]/.test(a))
    .map((a) => a.slice(2).split("=")[0]!)
    .filter((f) => !flags.has(f));
  return unknown.length > 0 ? `${file} declares no ${unknown.map((f) => `--${f}`).join(", ")}` : null;
}

describe("the documents' commands", () => {
  for (const document of DOCUMENTS) {
    it(`${document}: every npm script, make target, script file and bench flag exists`, () => {
      const problems = commandLines(read(document)).flatMap((line) =>
        simpleCommands(line)
          .map(problem)
          .filter((p): p is string => p !== null)
          .map((p) => `${p}: ${line.trim()}`),
      );
      expect(problems).to.deep.equal([]);
    });
  }

  it("finds the commands it checks, and an unknown flag, script or target", () => {
    const markdown = "text `npm run bench -- --set A --nope 1` and\n```sh\nSOLVER_CLOCK=cpu taskset -c 1 make nothing-here\n```\n";
    const lines = commandLines(markdown);
    expect(lines).to.have.length(2);
    const found = lines.flatMap((l) => simpleCommands(l)).map(problem);
    expect(found).to.deep.equal(["no make target 'nothing-here'", "bench/run.ts declares no --nope"]);
    expect(problem(["npm", "run", "no-such-script"])).to.equal("no npm script 'no-such-script' in package.json");
    expect(problem(["node", "--import", "tsx", "bench/no-such-file.ts"])).to.equal("no file bench/no-such-file.ts");
  });
});
