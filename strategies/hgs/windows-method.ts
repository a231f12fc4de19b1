import type { HgsModel } from "./model.js";

/** The hgs methods that can search a textbook problem with binding windows. */
export type WindowsMethod = "genetic" | "iterated" | "general";

/**
 * Above this many customers, textbook problems with binding windows go to the iterated local
 * search with time-warp pricing (textbook-ils.ts, window-ruin.ts) instead of the genetic search.
 */
export const WINDOWS_ITERATED_ABOVE = 200;

/**
 * Which method searches a textbook problem with binding windows. Benchmarks may force one with
 * the environment variable HGS_WINDOWS_METHOD (genetic, iterated or general, the general iterated
 * local search of ils.ts) to compare them on the same problems; it is an internal switch for
 * measurement, not part of the API.
 */
export function windowsMethod(m: HgsModel): WindowsMethod {
  const forced = process.env.HGS_WINDOWS_METHOD;
  if (forced === "genetic" || forced === "iterated" || forced === "general") return forced;
  return m.customers.length > WINDOWS_ITERATED_ABOVE ? "iterated" : "genetic";
}
