import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../../src/infra/repo-root.js";
import { evaluateRoutes, initialRoutesFromPyvrp, initialRoutesFromResult, type PyvrpSolution } from "../../bench/peers/pyvrp-routes.js";
import { travelInstance, type TravelFamily, type TravelInstance } from "../../bench/travel-family-instance.js";
import { solveRequest } from "../../src/problem/solve-request.js";

/** The model bench/peers/pyvrp-travel.py writes with --dump-model (the fields used here). */
interface Model {
  units: { distance: number; time: number; cost: number; load: number };
  locations: number;
  depots: { node: number | null; location: number }[];
  clients: { node: number; location: number; delivery: number; service: number; tw_early: number; tw_late: number; group: number | null }[];
  groups: number[][];
  vehicle_types: {
    vehicles: number[];
    capacity: number;
    start_depot: number;
    end_depot: number;
    profile: number;
    fixed_cost: number;
    unit_distance_cost: number;
    unit_duration_cost: number;
    tw_early: number;
  }[];
  profiles: { distance: number[][]; duration: number[][] }[];
}

/**
 * The planted plan in the model's terms, priced by PyVRP's rules in its integer units: each
 * customer served by the copy whose window holds the planted arrival (the plan never waits),
 * the route leaving at its type's earliest start and ending at its type's end depot (the
 * sink of an open route is reached at no cost). Returns the routes and the cost in currency.
 */
function plantedInModel(model: Model, planted: number[][]): { solution: PyvrpSolution; cost: number } {
  const copies = new Map<number, number[]>();
  model.clients.forEach((c, idx) => copies.set(c.node, [...(copies.get(c.node) ?? []), idx]));
  const typeOf = (v: number) => model.vehicle_types.findIndex((t) => t.vehicles.includes(v));
  const routes: PyvrpSolution["routes"] = [];
  let cost = 0;
  planted.forEach((route, v) => {
    if (route.length === 0) return;
    const type = model.vehicle_types[typeOf(v)]!;
    const { distance, duration } = model.profiles[type.profile]!;
    let at = model.depots[type.start_depot]!.location;
    let clock = type.tw_early;
    let dist = 0;
    let load = 0;
    const clients = route.map((node) => {
      clock += duration[at]![node]!;
      dist += distance[at]![node]!;
      const copy = copies.get(node)!.find((c) => model.clients[c]!.tw_early <= clock && clock <= model.clients[c]!.tw_late);
      expect(copy, `node ${node} reached at ${clock} inside one of its windows`).to.not.equal(undefined);
      clock += model.clients[copy!]!.service;
      load += model.clients[copy!]!.delivery;
      at = node;
      return copy!;
    });
    const end = model.depots[type.end_depot]!.location;
    clock += duration[at]![end]!;
    dist += distance[at]![end]!;
    expect(load).to.be.at.most(type.capacity);
    cost += type.fixed_cost + type.unit_distance_cost * dist + type.unit_duration_cost * (clock - type.tw_early);
    routes.push({ vehicle_type: typeOf(v), clients });
  });
  const solution = {
    client_node: model.clients.map((c) => c.node),
    type_vehicles: model.vehicle_types.map((t) => t.vehicles),
    routes,
  };
  return { solution, cost: cost / model.units.cost };
}

/** Small instances (under 120 customers) of the families PyVRP models, and one of breaks. */
const SMALL: [TravelFamily, number][] = [
  ["durations", 6],
  ["profiles", 4],
  ["two-windows", 7],
  ["open", 5],
  ["time-cost", 4],
];

/**
 * A plain python3 (the converter's --dump-model needs neither pyvrp nor numpy), as its own
 * executable rather than a version manager's shim, which costs half a second a start; null without one.
 */
const probe = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" });
const python = probe.status === 0 ? probe.stdout.trim() : null;

describe("bench/peers: PyVRP on the travel families", function () {
  this.timeout(20_000);
  const instances = new Map<TravelFamily, TravelInstance>(SMALL.map(([f, i]) => [f, travelInstance(f, i, 2026)]));

  it("maps PyVRP's routes back (copies to their customer, no end depot) to the planted plan's cost", () => {
    for (const instance of instances.values()) {
      const r = instance.request;
      const sets = r.node_time_window_sets as unknown[] | undefined;
      // Two copies of every customer with several windows (client 2c and 2c + 1), one vehicle type each.
      const client_node = Array.from({ length: 2 * r.node_num }, (_, c) => Math.floor(c / 2));
      const routes = instance.planted
        .map((route, v) => ({ vehicle_type: v, clients: route.map((c) => 2 * c + (sets?.[c] ? c % 2 : 0)) }))
        .filter((route) => route.clients.length > 0);
      const solution = { client_node, type_vehicles: instance.planted.map((_, v) => [v]), routes };
      const mapped = initialRoutesFromPyvrp(solution, r.vehicle_num);
      expect(mapped, instance.name).to.deep.equal(instance.planted);
      const verdict = evaluateRoutes(r, mapped);
      expect(verdict.error, instance.name).to.equal(null);
      expect(verdict.total_cost!, instance.name).to.be.closeTo(instance.plantedCost, 1e-6);
    }
  });

  it("reads our own result's routes back as the same stops (open routes end at their last stop)", () => {
    const instance = instances.get("open")!;
    const outcome = solveRequest(
      { ...instance.request, initial_routes: instance.planted, max_iterations: 0 },
      { requestId: "t", timeLimitSeconds: 5 },
    );
    if (outcome.status !== "solved") throw new Error(outcome.error);
    expect(initialRoutesFromResult(instance.request, outcome.result.routes)).to.deep.equal(instance.planted);
  });

  it("refuses a plan that serves a customer twice or not at all", () => {
    const instance = instances.get("durations")!;
    const [first, ...rest] = instance.planted;
    const twice = evaluateRoutes(instance.request, [[...first!, first![0]!], ...rest]);
    expect(twice.feasible).to.equal(false);
    expect(twice.error).to.match(/served 2 times/);
    const none = evaluateRoutes(instance.request, [first!.slice(1), ...rest]);
    expect(none.error).to.match(/served 0 times/);
  });

  describe("the converter's model (pyvrp-travel.py --dump-model)", function () {
    let dir = "";
    before(function () {
      if (!python) {
        console.log("      (skipped: no python3 on PATH to run bench/peers/pyvrp-travel.py --dump-model)");
        this.skip();
      }
      dir = mkdtempSync(join(tmpdir(), "pyvrp-travel-"));
    });
    after(() => dir && rmSync(dir, { recursive: true, force: true }));

    const convert = (instance: TravelInstance) => {
      const file = join(dir, `${instance.name}.json`);
      writeFileSync(file, JSON.stringify(instance.request));
      const run = spawnSync(python!, [join(REPO_ROOT, "bench", "peers", "pyvrp-travel.py"), file, "--dump-model", `${file}.model`], {
        encoding: "utf8",
      });
      return { run, model: () => JSON.parse(readFileSync(`${file}.model`, "utf8")) as Model };
    };

    it("prices the planted plan at its cost, PyVRP's way in integers and ours on the routes mapped back", () => {
      for (const instance of instances.values()) {
        const { run, model } = convert(instance);
        expect(run.status, run.stdout + run.stderr).to.equal(0);
        const m = model();
        const { solution, cost } = plantedInModel(m, instance.planted);
        expect(cost, instance.name).to.be.closeTo(instance.plantedCost, 1e-6);
        const verdict = evaluateRoutes(instance.request, initialRoutesFromPyvrp(solution, instance.request.vehicle_num));
        expect(verdict.total_cost!, instance.name).to.be.closeTo(instance.plantedCost, 1e-6);
        if (instance.family === "two-windows") expect(m.groups.length, "one group per customer with two windows").to.be.greaterThan(0);
        if (instance.family === "open") expect(m.depots.at(-1)!.node, "the open routes' end depot").to.equal(null);
      }
    });

    it("refuses breaks, which PyVRP 0.14 cannot model", () => {
      const { run } = convert(travelInstance("breaks", 6, 2026));
      expect(run.status).to.equal(2);
      expect(JSON.parse(run.stdout).error).to.match(/vehicle_breaks is given: PyVRP 0.14 has no breaks/);
    });
  });
});
