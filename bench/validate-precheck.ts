/**
 * `node --import tsx bench/validate-precheck.ts [--nodes N] [--vehicles M] [--runs K]`: the time
 * POST /api/v1/solve/validate spends in its infeasibility pre-check on the API's event loop, as
 * done (distances read on demand, no matrix) against compiling the full matrix first, on one
 * request with coordinates, time windows, service times and a working-hours cap. Medians of K runs.
 */
import { parseArgs } from "node:util";
import { compileRequest, requestDistance } from "../src/problem/compile-request.js";
import { infeasibilities } from "../src/problem/diagnostics.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "2000" },
    vehicles: { type: "string", default: "200" },
    runs: { type: "string", default: "9" },
  },
});
const n = Number(values.nodes);
const m = Number(values.vehicles);
const runs = Number(values.runs);

let state = 7;
const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
const positions = Array.from({ length: n }, (): [number, number] => [rand() * 1000, rand() * 1000]);
const request: SolveRequestInput = {
  node_num: n,
  vehicle_num: m,
  node_positions: positions,
  distance_matrix: [],
  start_nodes: Array(m).fill(0),
  end_nodes: Array(m).fill(0),
  node_demands: positions.map((_, i) => (i ? 1 + Math.floor(rand() * 9) : 0)),
  vehicles_capacity: Array(m).fill(100),
  node_time_windows: positions.map((_, i): [number, number] => (i ? [Math.floor(rand() * 400), 600] : [0, 900])),
  node_service_time: positions.map((_, i) => (i ? 10 : 0)),
  vehicle_speeds: Array(m).fill(5),
  max_working_hours: 10,
};

function median(f: () => void): number {
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    f();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const onDemand = median(() => infeasibilities(compileRequest(request, { withDistances: false }).problem, requestDistance(request)));
const fullMatrix = median(() => infeasibilities(compileRequest(request).problem));
console.log(`pre-check of ${n} nodes x ${m} vehicles, median of ${runs} runs`);
console.log(
  `| variant | ms |\n|---|---|\n| distances on demand (validate) | ` +
    `${onDemand.toFixed(1)} |\n| full matrix compiled first | ${fullMatrix.toFixed(1)} |`,
);
