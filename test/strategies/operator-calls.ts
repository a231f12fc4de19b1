import type { PairOperator, RouteOperator } from "../../strategies/search/operators/operator.js";

/** Evaluates a move between two routes and applies it when it improves, as the local searches do; whether it did. */
export function applyPair(op: PairOperator, ru: number, i: number, rv: number, j: number): boolean {
  if (!op.evaluate(ru, i, rv, j)) return false;
  op.apply();
  return true;
}

/** The same for a move within route r. */
export function applyWithin(op: RouteOperator, r: number, i: number, j: number): boolean {
  if (!op.evaluate(r, i, j)) return false;
  op.apply();
  return true;
}
