/**
 * Byte-for-byte: the responses of another checkout (`--against DIR`, e.g. main's src, strategies
 * and generated unpacked there with `git archive main src strategies generated | tar -x -C DIR`,
 * DIR inside this tree so that its imports resolve) against this one's, for the same requests
 * and solutions: a sample of every feature family, the load rules, several trips, the travel
 * families and the examples, each solved at a fixed iteration count, re-planned from a random
 * plan, evaluated only with random plans (feasible or not), and judged, explained and formatted
 * on those plans. Prints the first differences and a count; exits 1 when any differ.
 *
 *   node --import tsx bench/same-results.ts --against DIR [--plans 12]
 */
import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { familyRequest } from "../src/conformance/families.js";
import { compileRequest } from "../src/problem/compile-request.js";
import { formatAnswer } from "../src/problem/format-result.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { judgeAnswer } from "../src/problem/route-rules.js";
import { solveRequest } from "../src/problem/solve-request.js";
import { answerViolationReasons } from "../src/problem/violations.js";
import { evaluateAnswer } from "../strategies/core/answer-evaluation.js";
import type { CompiledProblem, Solution } from "../strategies/core/problem.js";
import { STRATEGY_FEATURES } from "../strategies/core/strategy.js";
import { TRAVEL_FAMILIES, travelInstance } from "./travel-family-instance.js";
import { tripRequest } from "../test/strategies/trip-problems.js";
import { loadRequest } from "../test/helpers/load-requests.js";

const { values } = parseArgs({ options: { against: { type: "string" }, plans: { type: "string", default: "12" } } });
if (!values.against) throw new Error("--against DIR: the other checkout's src, strategies and generated");
const other = resolve(values.against);
const load = async <T>(path: string) => (await import(pathToFileURL(`${other}/${path}`).href)) as T;

/** The other checkout's entry points as main has them (a solution and its score in, no evaluation object). */
type Score = { cost: number };
const before = {
  solve: (await load<{ solveRequest: typeof solveRequest }>("src/problem/solve-request.ts")).solveRequest,
  compile: (await load<{ compileRequest: typeof compileRequest }>("src/problem/compile-request.ts")).compileRequest,
  evaluate: (await load<{ evaluateSolution: (p: CompiledProblem, s: Solution) => Score }>("strategies/core/evaluator.ts")).evaluateSolution,
  reasons: (await load<{ violationReasons: (p: CompiledProblem, sc: Score, c: object) => string[] }>("src/problem/violations.ts"))
    .violationReasons,
  judge: (await load<{ judgeSolution: (p: CompiledProblem, s: Solution, sc: Score) => unknown }>("src/problem/route-rules.ts"))
    .judgeSolution,
  format: (await load<{ formatResult: (p: CompiledProblem, s: Solution, sc: Score, m: object) => unknown }>("src/problem/format-result.ts"))
    .formatResult,
};

const requests: [string, SolveRequestInput][] = STRATEGY_FEATURES.map((f) => [`family ${f}`, familyRequest(f)]);
for (const kind of ["pickups", "backhauls", "shipments", "dimensions", "all"] as const)
  requests.push([`loads ${kind}`, loadRequest(kind) as unknown as SolveRequestInput]);
for (let seed = 1; seed <= 6; seed++) {
  const trip = { seed, customers: 9, vehicles: 3, twoDepots: seed % 2 === 0, maxReloads: 2, timed: seed % 3 !== 0, soft: seed === 4 };
  requests.push([`trips ${seed}`, tripRequest(trip)]);
}
for (const family of TRAVEL_FAMILIES)
  for (let i = 0; i < 2; i++) requests.push([`travel ${family} ${i}`, travelInstance(family, i).request]);
for (const file of readdirSync("examples").filter((f) => f.endsWith(".json")))
  requests.push([`example ${file}`, JSON.parse(readFileSync(`examples/${file}`, "utf8")) as SolveRequestInput]);

let state = 12345;
const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
/** Every customer on a random vehicle in a random order, a share of them left out. */
function randomPlan(p: CompiledProblem, leaveOut: number): number[][] {
  const routes: number[][] = Array.from({ length: p.vehicleCount }, () => []);
  const customers = Array.from(p.customers);
  for (let i = customers.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [customers[i], customers[j]] = [customers[j]!, customers[i]!];
  }
  for (const c of customers) if (rand() >= leaveOut) routes[Math.floor(rand() * p.vehicleCount)]!.push(c);
  return routes;
}

/** The response as bytes, its clock (`time`) aside. */
const bytes = (o: unknown) => JSON.stringify(o, (key, value: unknown) => (key === "time" ? 0 : value));
let compared = 0;
let differ = 0;
function compare(what: string, a: unknown, b: unknown): void {
  const [x, y] = [bytes(a), bytes(b)];
  compared++;
  if (x === y) return;
  if (++differ > 10) return;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  console.log(`differs: ${what}\n  before: …${x.slice(Math.max(0, i - 80), i + 120)}\n  this:   …${y.slice(Math.max(0, i - 80), i + 120)}`);
}

const meta = {
  requestId: "r",
  solveSeconds: 0,
  strategy: "s",
  warnings: [],
  baseStartSeconds: 32400,
  seed: 1,
  iterations: 0,
  solverVersion: "v",
};
for (const [name, request] of requests) {
  const pBefore = before.compile(request).problem;
  const pThis = compileRequest(request).problem;
  for (const iterations of [1, 30]) {
    const options = { requestId: "r", timeLimitSeconds: 20, seed: 1, maxIterations: iterations };
    compare(`${name}: solved at ${iterations} iterations`, before.solve(request, options), solveRequest(request, options));
  }
  for (let k = 0; k < Number(values.plans); k++) {
    const plan = randomPlan(pThis, k % 3 === 0 ? 0 : 0.15);
    const { vehicle_locked_stops: _locks, ...unlocked } = request as SolveRequestInput & { vehicle_locked_stops?: unknown };
    const options = { requestId: "r", timeLimitSeconds: 20 };
    if (k < 3) {
      const replan = { ...unlocked, initial_routes: plan, max_iterations: 20 + 10 * k, seed: 1 } as SolveRequestInput;
      compare(`${name}: re-planned from plan ${k}`, before.solve(replan, options), solveRequest(replan, options));
    }
    const given = { ...unlocked, initial_routes: plan, max_iterations: 0 } as SolveRequestInput;
    compare(`${name}: plan ${k} evaluated only`, before.solve(given, options), solveRequest(given, options));
    const solution = { routes: plan };
    const score = before.evaluate(pBefore, solution);
    const answer = evaluateAnswer(pThis, solution);
    const reasons = before.reasons(pBefore, score, { solution, proven: [] });
    compare(`${name}: plan ${k} reasons`, reasons, answerViolationReasons(pThis, answer, []));
    compare(`${name}: plan ${k} judged`, before.judge(pBefore, solution, score), judgeAnswer(pThis, answer));
    compare(`${name}: plan ${k} formatted`, before.format(pBefore, solution, score, meta), formatAnswer(pThis, answer, meta));
  }
}
console.log(`${compared} comparisons on ${requests.length} requests, ${differ} differ`);
if (differ > 0) process.exitCode = 1;
