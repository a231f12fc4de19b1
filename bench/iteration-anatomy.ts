/**
 * What one iteration of a search does, counted: how many customers the local search examines, how
 * many candidates each move operator prices, how many routes are rewritten, how many localised runs,
 * SWAP* passes and repairs it makes, per iteration. The search is solved twice with the same seed, for
 * N and 2N iterations, and the difference is divided by N, so the start (construction, first descent)
 * cancels. The counters wrap the classes' methods, which slows them: the figures are counts, never
 * times (bench/fixed-iterations.ts measures those):
 * `node --import tsx bench/iteration-anatomy.ts REQUEST.json ITERATIONS [STRATEGY]`.
 */
import { readFileSync } from "node:fs";
import { Budget } from "../strategies/core/budget.js";
import { findStrategy } from "../strategies/registry.js";
import { selectStrategy } from "../strategies/select.js";
import { IdenticalVehiclesEducation } from "../strategies/ils/identical-vehicles-parts.js";
import { PerVehicleEducation } from "../strategies/ils/per-vehicle-parts.js";
import { CustomerMoves } from "../strategies/search/customer-moves.js";
import { LocalSearch } from "../strategies/search/local-search.js";
import { SwapStar } from "../strategies/search/moves/swap-star.js";
import { FleetUse } from "../strategies/search/moves/vehicle-change.js";
import { Relocate } from "../strategies/search/operators/relocate.js";
import { RelocateWithin } from "../strategies/search/operators/relocate-within.js";
import { Swap } from "../strategies/search/operators/swap.js";
import { SwapWithin } from "../strategies/search/operators/swap-within.js";
import { TwoOpt } from "../strategies/search/operators/two-opt.js";
import { TwoOptStar } from "../strategies/search/operators/two-opt-star.js";
import { Routes } from "../strategies/search/routes.js";
import { compileRequest } from "../src/problem/compile-request.js";
import type { SolveRequestInput } from "../src/problem/request-types.js";
import { benchSettings } from "./settings-env.js";

const counts = new Map<string, number>();

/** Counts every call of `method` on instances of `owner` under `label`. */
function count(owner: { prototype: object }, method: string, label: string): void {
  const proto = owner.prototype as Record<string, (...args: unknown[]) => unknown>;
  const original = proto[method]!;
  counts.set(label, 0);
  proto[method] = function (this: unknown, ...args: unknown[]) {
    counts.set(label, counts.get(label)! + 1);
    return original.apply(this, args);
  };
}

count(CustomerMoves, "examine", "customers examined");
count(Relocate, "evaluate", "relocate (between routes)");
count(Swap, "evaluate", "swap (between routes)");
count(TwoOptStar, "evaluate", "2-opt* (between routes)");
count(RelocateWithin, "evaluate", "relocate (within a route)");
count(SwapWithin, "evaluate", "swap (within a route)");
count(TwoOpt, "evaluate", "2-opt (within a route)");
count(SwapStar, "passLocalised", "SWAP* localised passes");
count(SwapStar, "pass", "SWAP* full passes");
count(SwapStar, "swapStar", "SWAP* route pairs priced");
count(Routes, "setRoute", "routes rewritten");
count(LocalSearch, "runLocalised", "localised runs");
count(LocalSearch, "run", "full runs");
count(IdenticalVehiclesEducation, "repair", "repairs");
count(PerVehicleEducation, "educate", "educations (any fleet)");
count(LocalSearch, "revisitViolating", "prices raised or lowered");
count(FleetUse, "improve", "vehicle-change rounds");

const [file, iterationsArg, pinned] = process.argv.slice(2);
const iterations = Number(iterationsArg);
if (!file || !Number.isInteger(iterations) || iterations <= 0)
  throw new Error("usage: iteration-anatomy.ts REQUEST.json ITERATIONS [STRATEGY]");
const { problem } = compileRequest(JSON.parse(readFileSync(file, "utf8")) as SolveRequestInput);
const strategy = pinned ? findStrategy(pinned) : selectStrategy(problem);

/** The counters after a solve of `cap` iterations (seed 1, a deadline far away). */
function countsAfter(cap: number): Map<string, number> {
  for (const label of counts.keys()) counts.set(label, 0);
  const budget = Budget.forSeconds(3600, 1, cap, undefined, benchSettings);
  strategy.solve(problem, budget);
  if (budget.iterationCount < cap) throw new Error(`the search stopped after ${budget.iterationCount} of ${cap} iterations`);
  return new Map(counts);
}

const once = countsAfter(iterations);
const twice = countsAfter(2 * iterations);
console.log(`${strategy.name}, ${problem.customers.length} customers, per iteration (${iterations} to ${2 * iterations}):`);
for (const [label, value] of twice) {
  const perIteration = (value - once.get(label)!) / iterations;
  if (perIteration !== 0) console.log(`${label.padEnd(28)} ${perIteration.toFixed(1).padStart(9)}`);
}
