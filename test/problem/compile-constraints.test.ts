import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { readFileSync } from "node:fs";

const base = JSON.parse(readFileSync(new URL("../../examples/small-cvrp.json", import.meta.url), "utf8")) as SolveRequestInput;

/** The compiled form of constraints.md's fields, the one interface the search and the contract share. */
describe("compiling the constraint fields", () => {
  it("leaves a request without them exactly as before (no rules, no loads keys)", () => {
    const p = compileRequest(base).problem;
    expect(p).not.to.have.property("rules");
    expect(p).not.to.have.property("loads");
  });

  it("compiles skip penalties, skills and route limits", () => {
    const n = base.node_num;
    const m = base.vehicle_num;
    const req = {
      ...base,
      node_skip_penalties: Array.from({ length: n }, (_, i) => (i === 2 ? 40 : null)),
      node_skills: Array.from({ length: n }, (_, i) => (i === 3 ? ["cold"] : null)),
      vehicle_skills: Array.from({ length: m }, (_, v) => (v === 0 ? ["cold"] : [])),
      vehicle_max_distance: Array.from({ length: m }, (_, v) => (v === 1 ? 50 : null)),
      vehicle_max_stops: Array.from({ length: m }, () => 4),
    } as SolveRequestInput;
    const rules = compileRequest(req).problem.rules!;
    expect(rules.skipPenalty[2]).to.equal(40);
    expect(rules.skipPenalty[1]).to.equal(Number.POSITIVE_INFINITY);
    expect(rules.allowed![0 * n + 3]).to.equal(1);
    expect(rules.allowed![1 * n + 3]).to.equal(0);
    expect(rules.allowed![1 * n + 2]).to.equal(1);
    expect(rules.maxDistance[1]).to.equal(50);
    expect(rules.maxDistance[0]).to.equal(Number.POSITIVE_INFINITY);
    expect(Array.from(rules.maxStops)).to.deep.equal(Array(m).fill(4));
  });

  it("compiles pickups and shipments into signed on-board changes with partners", () => {
    const n = base.node_num;
    const req = {
      ...base,
      node_demands: base.node_demands.map((d, i) => (i === 1 || i === 2 ? 0 : d)),
      node_pickups: Array(n).fill(0),
      shipments: [{ pickup: 1, delivery: 2, amount: 7 }],
    } as SolveRequestInput;
    const loads = compileRequest(req).problem.loads!;
    expect(loads.partner[1]).to.equal(2);
    expect(loads.partner[2]).to.equal(1);
    expect(loads.shipmentLoad[1]).to.equal(7);
    expect(loads.shipmentLoad[2]).to.equal(-7);
    expect(loads.extraDims).to.equal(0);
  });
});
