/**
 * Mocha root hooks that time each test file inside the suite, for ordering TEST_SLOW_FIRST in the
 * Makefile: with TEST_FILE_TIMES=PATH, `mocha --require test/helpers/file-times.ts --parallel ...`
 * appends one JSON line per file (the file, its mocha worker's pid, start and end in ms). In
 * parallel mode each file runs alone in a worker, so the root suite holds that file's tests only.
 */
import { appendFileSync } from "node:fs";
import type { Context, Suite } from "mocha";

const out = process.env.TEST_FILE_TIMES;
let start = 0;
let file = "";

function fileOf(root: Suite): string {
  return root.suites.find((s) => s.file)?.file ?? root.tests.find((t) => t.file)?.file ?? "?";
}

export const mochaHooks = {
  beforeAll(this: Context): void {
    start = Date.now();
    file = this.test?.parent ? fileOf(this.test.parent) : "?";
  },
  afterAll(): void {
    if (out) appendFileSync(out, JSON.stringify({ file, pid: process.pid, start, end: Date.now() }) + "\n");
  },
};
