/**
 * Scale-free prices of infeasibility. A search that crosses infeasible solutions prices a unit of
 * excess load or a minute of time warp; those prices adapt while it runs, and they must be
 * bounded (a price that grows without limit drowns the objective, one that falls to nothing lets
 * the search settle on violations). Fixed bounds (0.1 and 100,000 per unit) break on problems of
 * other scales: with every distance x 100,000 an overloaded route saves more distance than the
 * capped price of its excess, and the search never becomes feasible. So the bounds are multiples
 * of a reference price computed from the problem's own numbers (its distances, costs and demands).
 */

/** An adaptive price stays within [reference x BELOW, reference x ABOVE]. */
const BELOW = 1e-3;
/**
 * At the upper bound one unit of the largest demand over capacity costs a million longest edges:
 * more than any route of any allowed size (30,000 nodes) can save.
 */
const ABOVE = 1e6;
const RAISE = 1.2;
const LOWER = 0.85;
/** Half-width of the band around the target share in which a price stays put. */
const BAND = 0.05;

export interface PriceRange {
  min: number;
  max: number;
}

/** A positive, finite reference (1 when the problem's numbers give none, e.g. everything costs 0). */
function usable(reference: number): number {
  return Number.isFinite(reference) && reference > 0 ? reference : 1;
}

/** The range an adaptive price may move in, around its reference (factors below and above it). */
export function priceRange(reference: number, below = BELOW, above = ABOVE): PriceRange {
  const ref = usable(reference);
  return { min: ref * below, max: ref * above };
}

/**
 * Price of one unit of excess load: the cost of the longest edge per unit of the largest demand,
 * plus the dearest fixed cost per unit of capacity (overloading a small vehicle must not look
 * cheaper than the larger vehicle it stands for). Scales with distances, costs and demands alike.
 */
export function loadReference(unitCost: number, maxDistance: number, maxDemand: number, fixedPerUnit = 0): number {
  const perDistance = maxDemand > 0 ? (unitCost * maxDistance) / maxDemand : 0;
  return usable(perDistance + fixedPerUnit);
}

/**
 * Price of one minute of time warp or overtime: the cost of driving for a minute, and of the
 * minute itself where routes pay by the hour (a minute of warp saves a minute of paid duration).
 */
export function timeReference(unitCost: number, speed: number, perMinute = 0): number {
  return usable(unitCost * speed + perMinute);
}

/**
 * Vidal (2022)'s adaptive rule: raise the price when too few recent outcomes met its constraint
 * (`share` below `target`), lower it when too many did, within `range`.
 */
export function adaptPrice(price: number, share: number, target: number, range: PriceRange): number {
  if (share < target - BAND) return Math.min(range.max, price * RAISE);
  if (share > target + BAND) return Math.max(range.min, price * LOWER);
  return price;
}

/** Clamps a starting price into its range. */
export function clampPrice(price: number, range: PriceRange): number {
  return Math.min(range.max, Math.max(range.min, price));
}
