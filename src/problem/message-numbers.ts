/**
 * Numbers and lists as the service's English messages and evidence show them: one definition for
 * the pre-check, the failure messages and the result, so the same amount never reads two ways.
 */

/** Routes named in a message before the rest are summed up as "and N more". */
const NAMED_ROUTES = 3;

/** An evidence number in a pre-check message: integers as they are, others to two decimals, huge ones as 1e300 (not 1e+300). */
export function evidenceNumber(x: number): string {
  if (Math.abs(x) >= 1e21) return String(x).replace("e+", "e");
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

/** An amount in a failure message: very large or very small ones to four significant digits. */
export function amountNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : Math.abs(x) >= 1e6 || Math.abs(x) < 0.01 ? x.toPrecision(4) : x.toFixed(2);
}

/** The first few items, then "and N more". */
export function listedItems(items: string[]): string {
  const named = items.slice(0, NAMED_ROUTES).join(", ");
  return items.length > NAMED_ROUTES ? `${named} and ${items.length - NAMED_ROUTES} more` : named;
}

/**
 * Rounds away floating-point dust (e.g. 70.00000000000001) without changing real values. A number
 * too large to scale (1e300 x 1e9 overflows to Infinity) has no dust worth removing and stays.
 */
export function withoutDust(x: number): number {
  const scaled = x * 1e9;
  return Number.isFinite(scaled) ? Math.round(scaled) / 1e9 : x;
}

/** A used vehicle's key in the result's per-route fields. */
export function vehicleLabel(v: number): string {
  return `Vehicle ${v}`;
}
