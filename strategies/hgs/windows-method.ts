import type { HgsModel } from "../search/textbook-model.js";

/** The hgs methods that can search a textbook problem with binding windows. */
export type WindowsMethod = "genetic" | "iterated" | "general";

/**
 * Above this many customers, textbook problems with binding windows go to the iterated local
 * search with time-warp pricing (ils/textbook-ils.ts, search/textbook/window-insertion.ts) instead of the genetic
 * search: from 200 customers up the genetic search falls well behind, and above a few hundred it
 * often ends infeasible (BENCHMARKS.md, GH200 and GH-large). At 100 customers and fewer the genetic
 * search is as good on a quiet machine, and it stops early on tiny problems.
 */
export const WINDOWS_ITERATED_ABOVE = 100;

/**
 * Which method searches a textbook problem with binding windows. Benchmarks may force one with
 * the environment variable HGS_WINDOWS_METHOD (genetic, iterated or general, the general iterated
 * local search of ils/general-ils.ts) to compare them on the same problems; it is an internal switch for
 * measurement, not part of the API.
 */
export function windowsMethod(m: HgsModel): WindowsMethod {
  const forced = process.env.HGS_WINDOWS_METHOD;
  if (forced === "genetic" || forced === "iterated" || forced === "general") return forced;
  return m.customers.length > WINDOWS_ITERATED_ABOVE ? "iterated" : "genetic";
}
