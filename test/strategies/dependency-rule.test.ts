import { expect } from "chai";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
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
        if (/(^|\/)(src|generated)\//.test(target) || /^\.\.\/\.\.\//.test(target)) offenders.push(`${relative(REPO_ROOT, file)} imports ${target}`);
      }
      if (/Math\.random/.test(text)) offenders.push(`${relative(REPO_ROOT, file)} uses Math.random`);
    }
    expect(offenders).to.deep.equal([]);
  });
});
