import { expect } from "chai";
import { extractSubProblem } from "../../strategies/decomposition/subproblem.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { decodeProblem, encodeProblem, type EncodedProblem } from "../../src/queue/help-items.js";
import { baseRequest } from "../../src/conformance/families.js";
import { cvrpRequest } from "../helpers/requests.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";

/** A sub-problem of the first routes of a plain split of the customers over the vehicles. */
function subOf(request: SolveRequestInput) {
  const { problem } = compileRequest(request);
  const per = Math.ceil(problem.customers.length / problem.vehicleCount);
  const routes = Array.from({ length: problem.vehicleCount }, (_, v) => [...problem.customers.slice(v * per, (v + 1) * per)]);
  return extractSubProblem(problem, [0, 1, 2], routes.slice(0, 3)).problem;
}

const wire = (p: ReturnType<typeof subOf>) => JSON.parse(JSON.stringify(encodeProblem(p))) as EncodedProblem;

describe("help items on the wire", () => {
  it("leave out distances that are the coordinates' and give back the same sub-problem", () => {
    const sub = subOf(baseRequest(60, 6, 5));
    const sent = wire(sub);
    expect(sent.dist, "no matrix travels").to.equal("");
    expect(decodeProblem(sent)).to.deep.equal(sub);
  });

  it("carry a given matrix that is not the coordinates' as it is", () => {
    // Rounded distances: not the coordinates' euclidean ones.
    const sub = subOf(cvrpRequest({ customers: 30, vehicles: 5, capacity: 40, seed: 3 }) as unknown as SolveRequestInput);
    const sent = wire(sub);
    expect(sent.dist).to.not.equal("");
    expect(decodeProblem(sent)).to.deep.equal(sub);
  });

  it("carry a matrix given with few decimals as scaled integers, decoded to the same numbers", () => {
    const sub = subOf(cvrpRequest({ customers: 30, vehicles: 5, capacity: 40, seed: 3 }) as unknown as SolveRequestInput);
    const n = sub.nodeCount;
    // One decimal, as the Gehring-Homberger matrices: half the bytes of the doubles.
    const tenths = {
      ...sub,
      coords: null,
      dist: Float64Array.from(sub.dist, (d, k) => (k % (n + 1) === 0 ? 0 : Math.round(d * 10 + 3) / 10)),
    };
    const sent = wire(tenths);
    expect(sent.distDecimals).to.equal(1);
    expect(Buffer.from(sent.dist, "base64").byteLength).to.equal(4 * n * n);
    expect(decodeProblem(sent)).to.deep.equal(tenths);
    // A distance no few decimals write exactly travels as a double.
    const odd = { ...tenths, dist: Float64Array.from(tenths.dist, (d, k) => (k === 1 ? d + Math.PI : d)) };
    expect(wire(odd).distDecimals).to.equal(undefined);
    expect(decodeProblem(wire(odd))).to.deep.equal(odd);
  });

  it("keep a working-hours cap that is absent (infinite) absent through JSON", () => {
    const request = { ...baseRequest(40, 5, 5), node_time_windows: undefined } as SolveRequestInput;
    const sub = subOf(request);
    const timed = {
      ...sub,
      time: {
        twStartMin: new Float64Array(sub.nodeCount),
        twEndMin: new Float64Array(sub.nodeCount).fill(1000),
        serviceMin: new Float64Array(sub.nodeCount),
        speed: new Float64Array(sub.vehicleCount).fill(1),
        maxRouteMin: Number.POSITIVE_INFINITY,
        latePenaltyPerMin: 0,
      },
    };
    const decoded = decodeProblem(wire(timed));
    expect(decoded.time!.maxRouteMin).to.equal(Number.POSITIVE_INFINITY);
    expect(decoded).to.deep.equal(timed);
  });

  it("refuse an item whose arrays do not match its sizes", () => {
    const sent = wire(subOf(baseRequest(20, 4, 5)));
    expect(() => decodeProblem({ ...sent, vehicleCount: sent.vehicleCount + 1 })).to.throw(/match/);
  });
});
