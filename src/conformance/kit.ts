import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Budget } from "../../strategies/core/budget.js";
import { solverNow } from "../../strategies/core/clock.js";
import { evaluateAnswer } from "../../strategies/core/answer-evaluation.js";
import { isReloadStop } from "../../strategies/core/evaluate-trips.js";
import type { CompiledProblem, Solution } from "../../strategies/core/problem.js";
import { STRATEGY_FEATURES, type Strategy } from "../../strategies/core/strategy.js";
import { compileRequest } from "../problem/compile-request.js";
import { infeasibilities } from "../problem/diagnostics.js";
import { judgeAnswer } from "../problem/route-rules.js";
import type { SolveRequestInput } from "../problem/request-types.js";
import { REPO_ROOT } from "../infra/repo-root.js";
import { baseRequest, familyRequest, requestFeatures } from "./families.js";
import { checkCooperative } from "./cooperative-check.js";

export interface CheckResult {
  check: string;
  outcome: "pass" | "fail" | "skip";
  detail: string;
}

export interface KitOptions {
  /** Folder of example requests (every *.json); default: the repository's examples/. */
  examplesDir?: string;
  /** The time limit of the time-limit check, in seconds. */
  timeLimitSeconds?: number;
  /** When the cancel check raises its abort flag, in ms after the solve starts. */
  cancelAfterMs?: number;
  /** Iterations per solve in the result checks (a cap, so they stay short and repeatable). */
  iterations?: number;
  /** Seconds of each of the cooperative check's three solves (a cooperative strategy only). */
  cooperativeSeconds?: number;
}

/** The cooperative check's instance: large enough that a decomposition has groups to hand out. */
export const COOPERATIVE_CUSTOMERS = 700;

const SEED = 7;

/**
 * Every check of the conformance kit on one strategy, in order. Nothing the strategy says about
 * its own solutions is trusted: every result is scored by the service's evaluator and judged by
 * its route rules.
 */
export function runConformance(strategy: Strategy, options: KitOptions = {}): CheckResult[] {
  const o = {
    examplesDir: join(REPO_ROOT, "examples"),
    timeLimitSeconds: 0.5,
    cancelAfterMs: 200,
    iterations: 300,
    cooperativeSeconds: 2,
    ...options,
  };
  const results: CheckResult[] = [];
  const record = (check: string, run: () => Omit<CheckResult, "check">) => {
    try {
      results.push({ check, ...run() });
    } catch (err) {
      results.push({ check, outcome: "fail", detail: `threw: ${err instanceof Error ? err.message : String(err)}` });
    }
  };
  const claimed = new Set<string>(strategy.features);
  const solveChecked = (request: SolveRequestInput, mayDeclineForSize: boolean) => () => {
    const { problem } = compileRequest(request);
    // What the service proves infeasible never reaches a strategy.
    const proof = infeasibilities(problem, undefined, request).find((i) => !i.may_be_unassigned);
    if (proof) return skip(`no plan exists, as the service proves before any strategy runs: ${proof.message}`);
    const uses = requestFeatures(request);
    const unclaimed = uses.filter((f) => !claimed.has(f));
    const support = strategy.supports(problem);
    if (unclaimed.length > 0) {
      if (support.ok) return fail(`uses ${unclaimed.join(", ")}, which the strategy does not claim, yet supports() accepted it`);
      if (!support.reason?.trim()) return fail("declined without a reason");
      return pass(`declined as it should (${unclaimed.join(", ")} not claimed): ${support.reason}`);
    }
    if (!support.ok) {
      return mayDeclineForSize ? skip(`declined: ${support.reason}`) : fail(`claims ${uses.join(", ")} but declined: ${support.reason}`);
    }
    const started = solverNow();
    const solution = strategy.solve(problem, Budget.forSeconds(5, SEED, o.iterations));
    const verdict = judge(problem, solution);
    const seconds = ((solverNow() - started) / 1000).toFixed(2);
    return verdict.ok ? pass(`feasible, cost ${verdict.cost.toFixed(2)} (${seconds} s)`) : fail(verdict.why);
  };

  for (const file of readdirSync(o.examplesDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const request = JSON.parse(readFileSync(join(o.examplesDir, file), "utf8")) as SolveRequestInput;
    record(`example ${file}`, solveChecked(request, true));
  }
  for (const feature of STRATEGY_FEATURES) record(`feature ${feature}`, solveChecked(familyRequest(feature), false));

  // The checks below run on the largest base instance the strategy takes.
  const base = [40, 12, 5]
    .map((c) => compileRequest(baseRequest(c, Math.max(2, Math.ceil(c / 8)), 11)).problem)
    .find((p) => strategy.supports(p).ok);
  if (!base) {
    for (const check of ["determinism", "time limit", "cancel", "progress"]) {
      results.push({ check, outcome: "fail", detail: "declined every base instance (5, 12 and 40 customers)" });
    }
    return results;
  }
  const size = `${base.customers.length} customers`;
  record("determinism", () => {
    const a = strategy.solve(base, Budget.forSeconds(30, SEED, o.iterations));
    const b = strategy.solve(base, Budget.forSeconds(30, SEED, o.iterations));
    return JSON.stringify(a.routes) === JSON.stringify(b.routes)
      ? pass(`same routes twice with seed ${SEED} and ${o.iterations} iterations (${size})`)
      : fail(`two solves with seed ${SEED} and ${o.iterations} iterations gave different routes (${size})`);
  });
  record("time limit", () => {
    const started = solverNow();
    strategy.solve(base, Budget.forSeconds(o.timeLimitSeconds, SEED));
    const took = (solverNow() - started) / 1000;
    const allowed = o.timeLimitSeconds * 1.5 + 0.25;
    const detail = `returned after ${took.toFixed(2)} s of a ${o.timeLimitSeconds} s budget (${size})`;
    return took <= allowed ? pass(detail) : fail(`${detail}; allowed ${allowed.toFixed(2)} s`);
  });
  record("cancel", () => {
    const started = solverNow();
    const budget = Budget.forSeconds(60, SEED, undefined, () => solverNow() - started >= o.cancelAfterMs);
    strategy.solve(base, budget);
    const tookMs = solverNow() - started;
    const allowedMs = o.cancelAfterMs * 1.5 + 250;
    const detail = `returned ${Math.round(tookMs)} ms after start, abort raised at ${o.cancelAfterMs} ms of a 60 s budget (${size})`;
    return tookMs <= allowedMs ? pass(detail) : fail(`${detail}; allowed ${Math.round(allowedMs)} ms`);
  });
  record("progress", () => {
    const reports: Solution[] = [];
    const budget = Budget.forSeconds(30, SEED, o.iterations);
    budget.onImprovement((best) => reports.push(best));
    strategy.solve(base, budget);
    if (reports.length === 0) {
      if (strategy.kind !== "search") return skip(`no report (optional for a ${strategy.kind} strategy)`);
      return fail("a search strategy must call budget.improved(solution) with each new best feasible solution; it reported none");
    }
    for (const [i, report] of reports.entries()) {
      const verdict = judge(base, report);
      if (!verdict.ok) return fail(`report ${i + 1} of ${reports.length} is not feasible: ${verdict.why}`);
    }
    return pass(`${reports.length} improvement(s) reported, each feasible (${size})`);
  });
  record("cooperative", () => {
    if (!strategy.cooperative) return skip("not a cooperative strategy");
    const request = baseRequest(COOPERATIVE_CUSTOMERS, Math.ceil(COOPERATIVE_CUSTOMERS / 8), 11);
    const problem = compileRequest(request).problem;
    if (!strategy.supports(problem).ok) return skip(`declined its ${COOPERATIVE_CUSTOMERS}-customer instance`);
    const checked = checkCooperative(strategy, problem, o.cooperativeSeconds, SEED, judge);
    return checked.ok ? pass(checked.detail) : fail(checked.detail);
  });
  return results;
}

/** The service's own verdict on a solution, plus a structural check a strategy could get wrong. */
export function judge(p: CompiledProblem, s: Solution): { ok: true; cost: number } | { ok: false; why: string } {
  if (!s || !Array.isArray(s.routes) || s.routes.length !== p.vehicleCount) {
    const got = Array.isArray(s?.routes) ? s.routes.length : "none";
    return { ok: false, why: `the solution must have one route per vehicle (${p.vehicleCount}), got ${got}` };
  }
  // A depot inside a route is refused, except one of that vehicle's reload stops (several trips).
  const depotInside = (c: number, v: number) => p.isDepot[c] === 1 && !(p.trips && isReloadStop(p.trips, v, c));
  const stray = s.routes
    .flatMap((route, v) => route.filter((c) => !Number.isInteger(c) || c < 0 || c >= p.nodeCount || depotInside(c, v)))
    .at(0);
  if (stray !== undefined) return { ok: false, why: `routes may hold customers only; found ${stray}` };
  const answer = evaluateAnswer(p, s);
  const score = answer.score;
  const verdict = judgeAnswer(p, answer);
  if (verdict.feasible) return { ok: true, cost: score.cost };
  const parts = [
    score.missing.length ? `required customers missing: ${score.missing.join(", ")}` : "",
    score.duplicated.length ? `customers visited twice: ${score.duplicated.join(", ")}` : "",
    verdict.unservedRequired.length ? `required customers unserved: ${verdict.unservedRequired.join(", ")}` : "",
  ].filter(Boolean);
  const what = parts.length ? `: ${parts.join("; ")}` : " (a capacity, window, rule or load is violated)";
  return { ok: false, why: `not feasible by the evaluator${what}` };
}

const pass = (detail: string) => ({ outcome: "pass" as const, detail });
const fail = (detail: string) => ({ outcome: "fail" as const, detail });
const skip = (detail: string) => ({ outcome: "skip" as const, detail });
