import { expect } from "chai";
import { SolverThreadRunner } from "../../src/worker/solver-thread-runner.js";
import { BASE_MB, BUCKET_MB, solverHeapLimitMb } from "../../src/worker/solver-heap.js";
import { checkDistanceResult } from "../../checker/check-result.js";
import { cvrpRequest, type PlainCvrpRequest } from "../helpers/requests.js";
import type { SolveReply } from "../../src/worker/solve-thread.js";

const job = (request: object) => ({
  requestJson: JSON.stringify(request),
  options: { requestId: "heap-test", timeLimitSeconds: 1, seed: 3 },
});

function expectSolved(reply: SolveReply, request: PlainCvrpRequest): void {
  expect(reply.ok, reply.ok ? "" : reply.error).to.equal(true);
  if (!reply.ok) return;
  expect(reply.outcome.status, JSON.stringify(reply.outcome).slice(0, 300)).to.equal("solved");
  checkDistanceResult(request, (reply.outcome as { result: Parameters<typeof checkDistanceResult>[1] }).result);
}

describe("worker: the solver thread's heap limit follows the job's size", () => {
  it("grows with nodes and request bytes, in buckets, and never above the configured maximum", () => {
    const small = solverHeapLimitMb({ nodes: 10, requestBytes: 2_000 }, 4096);
    expect(small).to.equal(Math.ceil((BASE_MB + 1) / BUCKET_MB) * BUCKET_MB);
    const xxl = solverHeapLimitMb({ nodes: 30_001, requestBytes: 445_505 }, 4096);
    const matrix = solverHeapLimitMb({ nodes: 3_001, requestBytes: 60_000_000 }, 4096);
    expect(xxl).to.be.greaterThan(small);
    expect(matrix).to.be.greaterThan(xxl);
    for (const limit of [small, xxl, matrix]) expect(limit % BUCKET_MB).to.equal(0);
    expect(solverHeapLimitMb({ nodes: 30_001, requestBytes: 60_000_000 }, 256)).to.equal(256);
  });

  it("starts a thread with the job's limit, keeps it for a similar job and replaces it for a much larger one", async function () {
    this.timeout(60_000);
    const runner = new SolverThreadRunner({ strategyModules: [], strategySelection: null }, 4096, (size) =>
      size.nodes > 1000 ? 512 : 128,
    );
    try {
      const request = cvrpRequest({ customers: 12, vehicles: 3, capacity: 40, seed: 5 });
      expectSolved(await runner.run(job(request), 30_000, {}, { nodes: 13, requestBytes: 1_000 }), request);
      expect(runner.currentLimitMb).to.equal(128);
      expectSolved(await runner.run(job(request), 30_000, {}, { nodes: 13, requestBytes: 1_000 }), request);
      expect(runner.currentLimitMb).to.equal(128);
      // The size is only a hint here: the thread is sized by it, whatever the request holds.
      expectSolved(await runner.run(job(request), 30_000, {}, { nodes: 2_000, requestBytes: 1_000 }), request);
      expect(runner.currentLimitMb).to.equal(512);
      // Back to a small job: 512 is at least twice 128, so a thread of the small limit replaces it.
      expectSolved(await runner.run(job(request), 30_000, {}, { nodes: 13, requestBytes: 1_000 }), request);
      expect(runner.currentLimitMb).to.equal(128);
    } finally {
      await runner.kill();
    }
  });

  it("solves a job again under the maximum when its scaled limit was too small, instead of failing it", async function () {
    this.timeout(120_000);
    // 32 MB of heap cannot parse a 2,000-node matrix (test/e2e/large-problems.test.ts relies on it).
    const runner = new SolverThreadRunner({ strategyModules: [], strategySelection: null }, 1024, () => 32);
    try {
      const request = cvrpRequest({ customers: 1999, vehicles: 150, capacity: 100, seed: 11 });
      const reply = await runner.run(job(request), 60_000, {}, { nodes: 2000, requestBytes: 1 });
      expectSolved(reply, request);
      expect(runner.currentLimitMb).to.equal(1024);
    } finally {
      await runner.kill();
    }
  });

  it("fails with the memory message when even the maximum is too small", async function () {
    this.timeout(120_000);
    const runner = new SolverThreadRunner({ strategyModules: [], strategySelection: null }, 32);
    try {
      const request = cvrpRequest({ customers: 1999, vehicles: 150, capacity: 100, seed: 11 });
      const reply = await runner.run(job(request), 60_000, {}, { nodes: 2000, requestBytes: 1 });
      expect(reply.ok).to.equal(false);
      if (!reply.ok) expect(reply.error).to.match(/more memory than the solver's limit of 32 MB/);
    } finally {
      await runner.kill();
    }
  });
});
