import { expect } from "chai";
import fc from "fast-check";
import { parseEventBlock } from "../../playground/src/event-stream.js";
import { generateProblem } from "../../playground/src/generate.js";
import { classicalMds } from "../../playground/src/mds.js";
import { clockToMinutes, minutesToClock } from "../../playground/src/plan-view.js";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";

const euclid = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** The playground's page logic that needs no browser: layout, generator, clock and event parsing. */
describe("route playground page logic", () => {
  it("classical MDS recovers the distances of points in the plane (up to rotation and reflection)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -500, max: 500 })), { minLength: 3, maxLength: 40 }),
        (points) => {
          const pts = points as [number, number][];
          const matrix = pts.map((a) => pts.map((b) => euclid(a, b)));
          const layout = classicalMds(matrix);
          const scale = Math.max(1, ...matrix.flat());
          for (let i = 0; i < pts.length; i++)
            for (let j = 0; j < pts.length; j++) {
              expect(Math.abs(euclid(layout[i]!, layout[j]!) - matrix[i]![j]!)).to.be.lessThan(1e-3 * scale);
            }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("generates requests the service's own validation accepts, with the asked size, depots and kinds", async () => {
    const api = await sharedSpecBackend();
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

  it(
    "generates optional stops, skills and shifts the service accepts and can serve: " + "every needed skill on a vehicle of every depot",
    async () => {
      const api = await sharedSpecBackend();
      for (const options of [
        { nodes: 60, depots: 1, capacities: true, windows: true, optional: true, skills: true, shifts: true, timeLimitSeconds: 5, seed: 2 },
        {
          nodes: 200,
          depots: 3,
          capacities: true,
          windows: false,
          optional: true,
          skills: true,
          shifts: true,
          timeLimitSeconds: 5,
          seed: 9,
        },
        { nodes: 8, depots: 2, capacities: false, windows: true, skills: true, timeLimitSeconds: 5, seed: 4 },
      ]) {
        const request = generateProblem(options) as Record<string, unknown> & ReturnType<typeof generateProblem>;
        expect(validateSolveRequest(api, request, () => null).ok, JSON.stringify(options)).to.equal(true);
        const needs = request.node_skills as (string[] | null)[];
        const has = request.vehicle_skills as string[][];
        for (let i = 0; i < request.node_num; i++) {
          for (const skill of needs[i] ?? []) {
            const depots = new Set(has.flatMap((s, v) => (s.includes(skill) ? [request.start_nodes[v]!] : [])));
            expect(depots.size, `skill ${skill} of node ${i} on a vehicle of every depot`).to.equal(options.depots);
          }
        }
        // Shifts only with the time dimension; penalties only on customers.
        expect(Array.isArray(request.vehicle_time_windows)).to.equal(options.windows && options.shifts === true);
        const penalties = request.node_skip_penalties as (number | null)[] | undefined;
        expect(penalties === undefined).to.equal(!("optional" in options));
        penalties?.forEach((p, i) => expect(i < options.depots ? p : 0, `depot ${i}`).to.satisfy((x: unknown) => x === null || x === 0));
      }
    },
  );

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
