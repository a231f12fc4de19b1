import type { HgsModel } from "../search/textbook-model.js";

/** The hgs methods that can search a textbook problem with binding windows. */
export type WindowsMethod = "genetic" | "iterated" | "general";

/**
 * Above this many customers, textbook problems with binding windows go to the iterated local
 * search with time-warp pricing (ils/textbook-ils.ts, search/textbook/window-insertion.ts) instead of the genetic
 * search. Measured (BENCHMARKS.md, issue 20; seed 1, one loaded core, the two methods one after
 * the other): GH200 (200 customers, 10 s) 0.86% against the genetic search's 3.50%, GH-large
 * (400-1,000, 30 s) 3.50% against 4 of 12 infeasible. On Solomon (100 customers, 10 s) the
 * iterated search was also ahead in the same conditions (0.37% vs 0.88%), but the genetic
 * search's 0.14% on a quieter machine leaves 100 customers and fewer with it (and it stops early
 * on tiny problems).
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
