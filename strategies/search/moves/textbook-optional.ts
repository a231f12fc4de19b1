import type { TextbookMovePricing } from "../textbook/move-pricing.js";

const EPS = 1e-7;

/**
 * Optional customers in the textbook local search (ProblemData.skipPrice), as PyVRP's local search
 * treats clients with prizes: a served customer leaves its route when the route saves more than
 * its skip price; an unserved one enters next to one of its granular neighbours (before or after
 * it), or takes an optional neighbour's place, or opens an empty route, where that costs less
 * than its skip price (less the neighbour's, for an exchange). Each candidate route is priced
 * exactly by the route model (Routes.price: distance, load and, under binding windows, the time
 * warp and working-hours excess of its concatenated segments), the price its `cost` would have.
 * `onCommit` reports the rewritten route's predicted price as the other moves do.
 */

/** Removes served customer u (at position i of route r) when that saves more than its skip price. */
export function textbookRemoveOptional(ls: TextbookMovePricing, u: number): boolean {
  const skip = ls.m.skipPrice![u]!;
  if (skip === Number.POSITIVE_INFINITY) return false;
  const r = ls.rs.routeOf[u]!;
  const i = ls.rs.pos[u]!;
  const a = ls.a
    .reset()
    .add(r, 1, i - 1)
    .add(r, i + 1, ls.rs.length[r]!);
  const after = ls.rs.price(r, a);
  if (after + skip >= ls.rs.cost[r]! - EPS) return false;
  commit(ls, r, after, u);
  return true;
}

/** Test hook: false prices every candidate position, so that a test can check the bounds prune only losers. */
let pruning = true;
export function setOptionalPruning(on: boolean): void {
  pruning = on;
}

/** The best candidate of the current insertion (module state: no closure is built per call in this hot path). */
let bestGain = 0;
let bestRoute = -1;
let bestFrom = 0;
let bestTo = 0;

/** Positions from..to of route r replaced by u ((from, from - 1): inserted after from - 1), priced exactly; kept when it gains most. */
function consider(ls: TextbookMovePricing, u: number, skip: number, r: number, from: number, to: number, freed: number): void {
  const a = ls.a
    .reset()
    .add(r, 1, from - 1)
    .node(u)
    .add(r, to + 1, ls.rs.length[r]!);
  const gain = skip + freed - (ls.rs.price(r, a) - ls.rs.cost[r]!);
  if (gain > bestGain) {
    bestGain = gain;
    bestRoute = r;
    bestFrom = from;
    bestTo = to;
  }
}

/**
 * u between positions j and j + 1 of route r. The detour's cost bounds the price rise from below
 * (load, time warp and duration only grow), so a position that cannot beat the best gain is not priced.
 */
function considerAfter(ls: TextbookMovePricing, u: number, skip: number, r: number, j: number): void {
  const m = ls.m;
  const n = m.nodeCount;
  const d = m.dist;
  const seq = ls.rs.seq[r]!;
  const a = seq[j]!;
  const b = seq[j + 1]!;
  // EPS of slack, as for exchanges: the priced gain may round above the bound (a tie then goes as without the bound).
  if (!pruning || skip - m.unitCost[r]! * (d[a * n + u]! + d[u * n + b]! - d[a * n + b]!) > bestGain - EPS)
    consider(ls, u, skip, r, j + 1, j, 0);
}

/**
 * u in place of the optional customer at position j of route r (skip price `freed`). Leaving that
 * customer out may lower the route's penalties, so the bound is looser than an insertion's: the
 * new price is at least fixed + unit x its distance, so the rise is at least the distance change
 * less the penalties the route pays now; a candidate that cannot beat the best gain is not priced.
 */
function considerExchange(ls: TextbookMovePricing, u: number, skip: number, r: number, j: number, freed: number): void {
  const m = ls.m;
  const n = m.nodeCount;
  const d = m.dist;
  const seq = ls.rs.seq[r]!;
  const a = seq[j - 1]!;
  const w = seq[j]!;
  const b = seq[j + 1]!;
  const distance = ls.rs.fwd[r]![ls.rs.length[r]! + 1]!;
  const paid = ls.rs.cost[r]! - ls.costs.travel(r, distance);
  const change = d[a * n + u]! + d[u * n + b]! - d[a * n + w]! - d[w * n + b]!;
  // EPS of slack: the bound's rounding never prunes a candidate that could win.
  if (!pruning || skip - freed - m.unitCost[r]! * change + paid > bestGain - EPS) consider(ls, u, skip, r, j, j, -freed);
}

/**
 * Serves unserved customer u where that gains most over its skip price (granular positions,
 * exchanges, an empty route); whether it did. With `since` >= 0 (the localised search: u was
 * unserved when last examined at that clock, nothing was improving then, and prices have not
 * changed since), a route not rewritten since is skipped: what inserting u there gains depends
 * only on that route, its prices and the skip prices, so it still gains nothing. On long routes
 * most of u's neighbours sit in routes the last ruin did not touch, so this saves most pricings.
 */
export function textbookInsertUnserved(ls: TextbookMovePricing, u: number, since = -1): boolean {
  const m = ls.m;
  const skipPrice = m.skipPrice!;
  const skip = skipPrice[u]!;
  bestGain = EPS;
  bestRoute = -1;
  const near = m.neighbours[u]!;
  for (let k = 0; k < near.length; k++) {
    const w = near[k]!;
    const r = ls.rs.routeOf[w]!;
    if (r < 0 || ls.rs.modifiedAt[r]! <= since) continue;
    const j = ls.rs.pos[w]!;
    considerAfter(ls, u, skip, r, j - 1);
    considerAfter(ls, u, skip, r, j);
    const freed = skipPrice[w]!;
    if (freed !== Number.POSITIVE_INFINITY) considerExchange(ls, u, skip, r, j, freed);
  }
  for (let r = 0; r < m.routes; r++) {
    if (ls.rs.length[r] !== 0) continue;
    if (ls.rs.modifiedAt[r]! > since) consider(ls, u, skip, r, 1, 0, 0);
    break;
  }
  if (bestRoute < 0) return false;
  const r = bestRoute;
  // An exchange leaves the neighbour it replaces unserved.
  const replaced = bestTo >= bestFrom ? ls.rs.seq[r]![bestFrom]! : -1;
  const a = ls.a
    .reset()
    .add(r, 1, bestFrom - 1)
    .node(u)
    .add(r, bestTo + 1, ls.rs.length[r]!);
  commit(ls, r, ls.rs.price(r, a), replaced);
  return true;
}

/** Rewrites route r as pieces `a`; `leaving` (-1: none) is the customer the move leaves unserved. */
function commit(ls: TextbookMovePricing, r: number, predicted: number, leaving: number): void {
  ls.predicted = predicted;
  const count = ls.write(ls.a, ls.scratch);
  ls.setRoute(r, ls.scratch, count);
  if (leaving >= 0) ls.rs.routeOf[leaving] = -1;
  ls.onCommit?.(predicted, r, -1);
}
