import { expect } from "chai";
import { lineBatcher } from "../../src/log/logger.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("log line batching", () => {
  it("keeps info lines of several turns for one write, in order", async () => {
    const writes: string[] = [];
    const batcher = lineBatcher((text) => writes.push(text), 60_000);
    batcher.line("a");
    await nextTurn();
    batcher.line("b");
    await nextTurn();
    batcher.line("c");
    await nextTurn();
    expect(writes).to.deep.equal([]);
    batcher.flushNow();
    expect(writes).to.deep.equal(["a\nb\nc\n"]);
  });

  it("writes an urgent line at the end of its turn, with the lines waiting before it", async () => {
    const writes: string[] = [];
    const batcher = lineBatcher((text) => writes.push(text), 60_000);
    batcher.line("info 1");
    await nextTurn();
    batcher.line("error", true);
    batcher.line("info 2");
    expect(writes).to.deep.equal([]);
    await nextTurn();
    expect(writes).to.deep.equal(["info 1\nerror\ninfo 2\n"]);
  });

  it("writes waiting info lines once the delay has passed", async () => {
    const writes: string[] = [];
    const batcher = lineBatcher((text) => writes.push(text), 5);
    batcher.line("x");
    batcher.line("y");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes).to.deep.equal(["x\ny\n"]);
    batcher.line("z");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes).to.deep.equal(["x\ny\n", "z\n"]);
  });
});
