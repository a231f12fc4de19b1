/**
 * Reads a document's shell examples (the README's walk-through, the blocks of
 * docs/api-extensions.md): its commands (continuation lines joined) and the JSON samples in its
 * comments, where `…` stands for "something here": `"3f0c…"` any string,
 * `"time":…` any value, `[…]` / `{…}` any array / object, and `,…` more entries (in an array
 * only at the end).
 */

export type Step = { kind: "command"; text: string } | { kind: "sample"; text: string };

/** The body of the first ```sh block after the heading `heading`. */
export function shellBlockAfter(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading '${heading}' in the document`);
  const match = /```sh\n([\s\S]*?)```/.exec(markdown.slice(start));
  if (!match) throw new Error(`no sh block after '${heading}'`);
  return match[1]!;
}

/** Commands and JSON samples in the order they appear; other comment lines are left out. */
export function walkThroughSteps(block: string): Step[] {
  const steps: Step[] = [];
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("# {")) {
      // A sample continues on lines indented under it ("#   ...") until its brackets balance.
      let text = line.slice(2);
      while (!balanced(text) && i + 1 < lines.length && lines[i + 1]!.startsWith("#   ")) text += lines[++i]!.slice(1).trim();
      steps.push({ kind: "sample", text });
    } else if (line !== "" && !line.startsWith("#")) {
      let text = line.replace(/\s+#.*$/, "");
      while (text.endsWith("\\") && i + 1 < lines.length) text = text.slice(0, -1) + " " + lines[++i]!.trim();
      steps.push({ kind: "command", text });
    }
  }
  return steps;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
    if (ch === "{" || ch === "[") depth++;
    if (ch === "}" || ch === "]") depth--;
  }
  return depth === 0;
}

const ANY = "\u0000any";
const ANY_STRING = "\u0000any string";
const MORE = "\u0000more";

/** Parses a sample into JSON with markers for its `…` parts. */
export function parseSample(text: string): unknown {
  const json = text
    // Every string token in order (so a match never starts at a closing quote).
    .replace(/"(?:[^"\\]|\\.)*"/g, (token) => (token.includes("…") ? JSON.stringify(ANY_STRING) : token))
    .replace(/\[…\]/g, `[${JSON.stringify(MORE)}]`)
    .replace(/\{…\}/g, `{${JSON.stringify(MORE)}:true}`)
    .replace(/,…([,}])/g, `,${JSON.stringify(MORE)}:true$1`)
    .replace(/,…\]/g, `,${JSON.stringify(MORE)}]`)
    .replace(/:…/g, `:${JSON.stringify(ANY)}`);
  return JSON.parse(json) as unknown;
}

/** Every difference between an actual JSON value and a parsed sample, as readable paths. */
export function sampleMismatches(sample: unknown, actual: unknown, path = "$"): string[] {
  if (sample === ANY) return [];
  if (sample === ANY_STRING) return typeof actual === "string" ? [] : [`${path}: expected a string, got ${JSON.stringify(actual)}`];
  if (Array.isArray(sample)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
    const open = sample[sample.length - 1] === MORE;
    const items = open ? sample.slice(0, -1) : sample;
    if (open ? actual.length < items.length : actual.length !== items.length)
      return [`${path}: expected ${items.length}${open ? " or more" : ""} items, got ${actual.length}`];
    return items.flatMap((item, i) => sampleMismatches(item, actual[i], `${path}[${i}]`));
  }
  if (sample !== null && typeof sample === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    const expected = sample as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    const out: string[] = [];
    for (const [key, value] of Object.entries(expected)) {
      if (key === MORE) continue;
      if (!(key in got)) out.push(`${path}.${key}: missing`);
      else out.push(...sampleMismatches(value, got[key], `${path}.${key}`));
    }
    if (!(MORE in expected)) for (const key of Object.keys(got)) if (!(key in expected)) out.push(`${path}.${key}: not in the sample`);
    return out;
  }
  return sample === actual ? [] : [`${path}: sample says ${JSON.stringify(sample)}, service says ${JSON.stringify(actual)}`];
}
