import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../../src/infra/service-process.js";

/**
 * Every relative link of the repository's markdown documents points at a file that exists, and
 * every `#anchor` at a heading of its target, so moving a section between documents cannot leave
 * a dead link behind. External links (http, mailto) are not fetched.
 */
const DOCUMENTS = execFileSync("git", ["ls-files", "*.md"], { cwd: REPO_ROOT, encoding: "utf8" })
  .split("\n")
  .filter((f) => f !== "" && !f.includes("node_modules/"));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a markdown document's headings (outside code blocks), repeats numbered as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let code = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) code = !code;
    const m = !code && /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links of a markdown document (outside code blocks and inline code). */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z]+:/.test(href));
}

function brokenLinks(document: string): string[] {
  const markdown = readFileSync(join(REPO_ROOT, document), "utf8");
  return relativeLinks(markdown).flatMap((href) => {
    const [path, anchor] = href.split("#") as [string, string | undefined];
    const target = path === "" ? document : normalize(join(dirname(document), path));
    if (!existsSync(join(REPO_ROOT, target))) return [`${href}: no file ${target}`];
    if (anchor === undefined || !target.endsWith(".md")) return [];
    return anchors(readFileSync(join(REPO_ROOT, target), "utf8")).has(anchor) ? [] : [`${href}: no heading #${anchor} in ${target}`];
  });
}

describe("the documents' links", () => {
  for (const document of DOCUMENTS) {
    it(`${document}: every relative link and anchor resolves`, () => {
      expect(brokenLinks(document)).to.deep.equal([]);
    });
  }

  it("computes GitHub's anchors, numbers repeats and finds only relative links", () => {
    expect(anchorOf("TypeScript SDK (`clients/typescript`)")).to.equal("typescript-sdk-clientstypescript");
    expect(anchorOf("XXL: 3,000-30,000 customers")).to.equal("xxl-3000-30000-customers");
    expect([...anchors("## A\ntext\n## A\n```\n## not a heading\n```\n")]).to.deep.equal(["a", "a-1"]);
    expect(relativeLinks("[a](docs/x.md#y) [b](https://example.com) `[c](z.md)`")).to.deep.equal(["docs/x.md#y"]);
  });
});
