/** hgs: which of its methods searches an identical-vehicles problem, by size, budget and features. */

/** What a benchmark may change in hgs's choice of method. */
export interface MethodsOverride {
  hgs?: Partial<HgsSettings>;
}

/** The hgs methods that can search an identical-vehicles problem with binding windows. */
export type WindowsMethod = "genetic" | "iterated" | "general";

/**
 * Above this many customers, identical-vehicles problems without binding windows go to the iterated local
 * search: a generation of the genetic search costs too much there to evolve a population in time.
 */
export const ITERATED_SEARCH_ABOVE = 300;

/**
 * Above this many customers (core/budget.ts's tiny problems, tinyProblemPatience), identical-vehicles problems
 * with binding windows go to the iterated local search with time-warp pricing: at equal CPU time
 * it was level with the genetic search or ahead on generated Solomon-sized instances and on
 * Solomon's, with four to six times its iterations. The genetic search stays for tiny problems,
 * where it stops once it stagnates while the iterated search would use the whole budget.
 */
export const WINDOWS_ITERATED_ABOVE = 12;

/**
 * Below this many seconds per customer, identical-vehicles problems with binding windows go to the iterated
 * local search at every size: the genetic search spends such a budget educating its first
 * population (4 x 25 local searches from random tours) and hardly evolves it, while the iterated
 * search improves one plan from its first second.
 */
export const WINDOWS_GENETIC_SECONDS_PER_CUSTOMER = 0.04;

/**
 * Below this many seconds per customer, identical-vehicles problems without binding windows go to the
 * iterated local search too: from about 100 customers the genetic search's first population (4 x
 * 25 educations of random tours, each dearer the larger the problem) takes most of a 1-3 s
 * budget, while the iterated search descends from the savings at once. Under 0.049, so that the
 * protocol's budgets (10 s up to 200 customers, 30 s above) keep the size rule. Only from a
 * feasible start: the iterated search improves one plan, and from savings that did not fit a
 * tight fleet it spent a 1 s budget finding a feasible one, which the genetic search's split
 * tours found at once.
 */
export const CAPACITY_GENETIC_SECONDS_PER_CUSTOMER = 0.03;

export interface HgsSettings {
  /**
   * Identical-vehicles problems without binding windows: by size (ITERATED_SEARCH_ABOVE) and budget
   * (CAPACITY_GENETIC_SECONDS_PER_CUSTOMER).
   */
  capacityMethod: "genetic" | "iterated";
  /**
   * Identical-vehicles problems with binding windows: by size (WINDOWS_ITERATED_ABOVE) and budget
   * (WINDOWS_GENETIC_SECONDS_PER_CUSTOMER).
   */
  windowsMethod: WindowsMethod;
  /**
   * Identical-vehicles problems with optional stops: the identical-vehicles iterated local search, the only identical-vehicles
   * method whose moves and recreate leave customers out; "general" is the general search.
   */
  optionalStopsMethod: "iterated" | "general";
  /**
   * Which customers the genetic search's local search examines in an offspring: "everyCustomer"
   * (HGS), or "changedCustomers", those whose route neighbours differ from its first parent's (a
   * local optimum already) and those its own moves change, as PyVRP's promising clients.
   */
  offspringSearch: OffspringSearch;
}

export type OffspringSearch = "everyCustomer" | "changedCustomers";

/**
 * hgs's methods for an identical-vehicles problem of `customers` customers; `seconds`: the whole solve's time
 * budget, or null (an iteration cap, or a sub-search inside a larger one), where size alone decides;
 * `startFeasible`: whether the construction's plan is feasible (CAPACITY_GENETIC_SECONDS_PER_CUSTOMER).
 */
export function hgsSettings(
  customers: number,
  override: MethodsOverride = {},
  seconds: number | null = null,
  startFeasible = true,
): HgsSettings {
  const shortFor = (secondsPerCustomer: number) => seconds !== null && seconds < customers * secondsPerCustomer;
  return {
    capacityMethod:
      customers > ITERATED_SEARCH_ABOVE || (startFeasible && shortFor(CAPACITY_GENETIC_SECONDS_PER_CUSTOMER)) ? "iterated" : "genetic",
    windowsMethod: customers > WINDOWS_ITERATED_ABOVE || shortFor(WINDOWS_GENETIC_SECONDS_PER_CUSTOMER) ? "iterated" : "genetic",
    optionalStopsMethod: "iterated",
    offspringSearch: "everyCustomer",
    ...override.hgs,
  };
}
