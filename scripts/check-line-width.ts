/**
 * Fails when a tracked source file (TypeScript, JavaScript, CSS, HTML, YAML, shell, Makefile) has a
 * line over 140 characters. Prettier wraps code to that width but not long strings or comments,
 * so this check holds what the formatter cannot. Generated files and data are not sources.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const MAX_WIDTH = 140;
const SOURCE = /(\.(ts|mjs|js|css|html|ya?ml|sh)|(^|\/)Makefile)$/;
const NOT_SOURCE = [/^generated\//, /^clients\/typescript\/src\/generated\//, /^test\/fixtures\//, /^test\/callbacks\/fixtures\//];

const files = execFileSync("git", ["ls-files"], { encoding: "utf8" })
  .split("\n")
  .filter((file) => SOURCE.test(file) && !NOT_SOURCE.some((pattern) => pattern.test(file)));

const long: string[] = [];
for (const file of files) {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  text.split("\n").forEach((line, index) => {
    if (line.length > MAX_WIDTH) long.push(`${file}:${index + 1}: ${line.length} characters`);
  });
}
if (long.length > 0) {
  console.error(`lines over ${MAX_WIDTH} characters (wrap them; the formatter cannot):\n${long.join("\n")}`);
  process.exit(1);
}
console.log(`line width: ${files.length} source files, none over ${MAX_WIDTH} characters`);
