// @ts-check
// Runs with `npm test` (node --test): no package to install. The service's conformance kit checks
// more (npm run conformance -- FOLDER, in the service's repository).
import { test } from "node:test";
import assert from "node:assert/strict";
import strategy from "../index.js";

/** @import { Budget, CompiledProblem } from "../strategy-types.js" */

/**
 * A compiled problem as the service builds one: depot 0, customers 1.., distances from positions.
 * @param {number[][]} positions
 * @param {number[]} demands
 * @param {number[]} capacities
 * @returns {CompiledProblem}
 */
function problem(positions, demands, capacities) {
  const n = positions.length;
  const dist = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) dist[i * n + j] = Math.hypot(positions[i][0] - positions[j][0], positions[i][1] - positions[j][1]);
  }
  const v = capacities.length;
  return {
    nodeCount: n,
    vehicleCount: v,
    customers: Int32Array.from({ length: n - 1 }, (_, i) => i + 1),
    isDepot: Uint8Array.from({ length: n }, (_, i) => (i === 0 ? 1 : 0)),
    dist,
    coords: Float64Array.from(positions.flat()),
    demand: Float64Array.from(demands),
    capacity: Float64Array.from(capacities),
    fixedCost: new Float64Array(v),
    unitCost: new Float64Array(v).fill(1),
    startNode: new Int32Array(v),
    endNode: new Int32Array(v),
    objective: "distance",
    time: null,
  };
}

/**
 * A budget that says stop from its `checks`-th check on.
 * @returns {Budget}
 */
function budget(checks = Infinity) {
  let count = 0;
  const stop = () => ++count >= checks;
  return { rng: { next: () => 0.5, int: () => 0 }, tick: stop, exhausted: stop, improved() {} };
}

const square = problem(
  [
    [0, 0],
    [1, 0],
    [2, 0],
    [0, 5],
    [0, 6],
    [-3, -3],
  ],
  [0, 2, 2, 3, 3, 1],
  [5, 8],
);

test("is a strategy the service can load", () => {
  assert.match(strategy.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  assert.equal(strategy.kind, "construction");
  assert.ok(strategy.features.includes("capacities"));
});

test("visits every customer once without overloading a vehicle", () => {
  const { routes } = strategy.solve(square, budget());
  assert.equal(routes.length, 2);
  assert.deepEqual(routes.flat().sort(), [1, 2, 3, 4, 5]);
  routes.forEach((route, v) => {
    const load = route.reduce((sum, c) => sum + square.demand[c], 0);
    assert.ok(load <= square.capacity[v], `vehicle ${v} carries ${load}`);
  });
});

test("goes to the nearest customer that fits", () => {
  assert.deepEqual(strategy.solve(square, budget()).routes[0], [1, 2, 5]);
});

test("declines what it does not handle, saying why", () => {
  for (const extra of [{ time: {} }, { rules: {} }, { loads: {} }]) {
    const verdict = strategy.supports({ ...square, ...extra });
    assert.equal(verdict.ok, false);
    assert.ok(!verdict.ok && verdict.reason.length > 0);
  }
  assert.deepEqual(strategy.supports(square), { ok: true });
});

test("returns when the budget says stop", () => {
  const { routes } = strategy.solve(square, budget(2));
  assert.deepEqual(routes.flat(), [1]);
});
