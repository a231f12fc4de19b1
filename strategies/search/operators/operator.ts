import type { Pieces } from "../pieces.js";
import type { Routes } from "../routes.js";

/**
 * How a move's rewritten routes reach the route store: the store itself, or the store and a
 * localised search's record of rewritten routes (promising-customers.ts).
 */
export interface RouteWriter {
  setRoute(r: number, customers: Int32Array, count: number): void;
}

/**
 * What an operator (this folder) prices its candidates with, implemented by the local search's
 * two pricings: pricing/identical-vehicles.ts (one vehicle type from one depot: priced from totals,
 * absolute tolerance) and pricing/per-vehicle.ts (any fleet: a lower bound from totals, then the
 * exact price on each vehicle, relative tolerance). An operator computes the candidate routes' totals from the route
 * store and describes them as pieces `a` (and `b`) of the current routes; the pricing decides in
 * steps so that most candidates stop at the cheapest: `pairMayImprove` (a bound from distances:
 * most candidates stop there, before their loads are even read), `pairImproves` (from totals),
 * `confirmPair` (exact: time windows, load on board), then `commitPair`.
 */
export interface MovePricing {
  readonly rs: Routes;
  /** The candidate that replaces route ru (and the only one of a move within a route). */
  readonly a: Pieces;
  /** The candidate that replaces route rv. */
  readonly b: Pieces;
  /** Penalised cost of the routes the last confirmed move rewrites, after it. */
  predicted: number;
  /** Where a committed move writes its candidates' customers (`a`, then `b`). */
  readonly outA: Int32Array;
  readonly outB: Int32Array;
  /**
   * Test hook: called after every applied move with the penalised cost the move was priced at
   * and the routes it rewrote (rb = -1 for a move within one route).
   */
  onCommit: ((predicted: number, ra: number, rb: number) => void) | null;
  /**
   * Whether route ru with `countA` customers and distance `distA`, and rv with `countB` and
   * `distB`, may cost less than ru and rv do now: a lower bound (fixed and distance costs).
   */
  pairMayImprove(ru: number, countA: number, distA: number, rv: number, countB: number, distB: number): boolean;
  /**
   * After pairMayImprove: whether the two candidates, with these delivered loads and service
   * times, may still cost less, priced from their totals.
   */
  pairImproves(loadA: number, servA: number, loadB: number, servB: number): boolean;
  /** After pairImproves: whether pieces `a` on ru and `b` on rv still improve, priced exactly. */
  confirmPair(ru: number, rv: number): boolean;
  /** Rewrites ru as pieces `a` and rv as `b` (after confirmPair). */
  commitPair(ru: number, rv: number): void;
  /** Whether route r, its distance changed by `delta` (same customers), may cost less. */
  withinImproves(r: number, delta: number): boolean;
  /** After withinImproves: whether pieces `a` on r still improve, priced exactly. */
  confirmWithin(r: number): boolean;
  /** Rewrites r as pieces `a` (after confirmWithin, or with `predicted` set by the caller). */
  commitWithin(r: number): void;
  /** An empty route of vehicle type `type` other than `except` (-1: none). */
  emptyOfType(type: number, except: number): number;
}

/** A move between two routes: u at position i of ru, with position j of rv (j = 0: rv's start). */
export interface PairOperator {
  /** Whether the move (its first improving variant) improves; it is then held for `apply`. */
  evaluate(ru: number, i: number, rv: number, j: number): boolean;
  /** Applies what the last `evaluate` found improving. */
  apply(): void;
}

/** A move within route r between positions i and j. */
export interface RouteOperator {
  evaluate(r: number, i: number, j: number): boolean;
  apply(): void;
}
