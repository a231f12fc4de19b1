import { expect } from "chai";
import fc from "fast-check";
import { parseEventBlock } from "../../playground/src/event-stream.js";
import { generateProblem } from "../../playground/src/generate.js";
import { classicalMds } from "../../playground/src/mds.js";
import { clockToMinutes, minutesToClock } from "../../playground/src/plan-view.js";
import { createSpecBackend } from "../../src/api/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";

const euclid = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** The playground's page logic that needs no browser: layout, generator, clock and event parsing. */
describe("route playground page logic", () => {
  it("classical MDS recovers the distances of points in the plane (up to rotation and reflection)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 })), { minLength: 3, maxLength: 40 }), (points) => {
        const pts = points as [number, number][];
        const matrix = pts.map((a) => pts.map((b) => euclid(a, b)));
        const layout = classicalMds(matrix);
        const scale = Math.max(1, ...matrix.flat());
        for (let i = 0; i < pts.length; i++) for (let j = 0; j < pts.length; j++) {
          expect(Math.abs(euclid(layout[i]!, layout[j]!) - matrix[i]![j]!)).to.be.lessThan(1e-3 * scale);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("generates requests the service's own validation accepts, with the asked size, depots and kinds", async () => {
    const api = await createSpecBackend({});
    for (const options of [
      { nodes: 60, depots: 1, capacities: true, windows: false, timeLimitSeconds: 5, seed: 1 },
      { nodes: 300, depots: 3, capacities: true, windows: true, timeLimitSeconds: 10, seed: 7 },
      { nodes: 2000, depots: 2, capacities: false, windows: false, timeLimitSeconds: 5, seed: 3 },
    ]) {
      const request = generateProblem(options);
      expect(request.node_num).to.equal(options.nodes);
      expect(new Set([...request.start_nodes, ...request.end_nodes]).size).to.equal(options.depots);
      expect(request.vehicle_num).to.be.at.most(200);
      expect(Array.isArray(request.node_time_windows)).to.equal(options.windows);
      const validation = validateSolveRequest(api, request, () => null);
      expect(validation.ok, JSON.stringify(validation)).to.equal(true);
    }
  });

  it("reads result clocks past midnight as minutes after the base start time, and back", () => {
    const base = 8 * 60 + 30;
    expect(clockToMinutes("25:10:30", base)).to.equal(25 * 60 + 10.5 - base);
    expect(minutesToClock(clockToMinutes("25:10:30", base), base)).to.equal("25:10:30");
  });

  it("parses event-stream blocks: event name, id, multi-line data; ignores comments and blocks without data", () => {
    expect(parseEventBlock('id: 7\nevent: progress\ndata: {"elapsed_seconds":1.5,\ndata: "best_cost":12}')).to.deep.equal({
      name: "progress",
      id: "7",
      data: { elapsed_seconds: 1.5, best_cost: 12 },
    });
    expect(parseEventBlock(": keep-alive")).to.equal(null);
    expect(parseEventBlock('data: {"success":true}')?.name).to.equal("message");
  });
});
