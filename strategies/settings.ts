import { bindingWindowShare, hasBreaks, windowsBindAgainst, type CompiledProblem } from "./core/problem.js";
import type { ProblemData } from "./search/problem-data.js";

/**
 * Every search setting that differs by problem family, and why, in one place. Each method reads
 * its own section, chosen from the features of the model it builds: the identical-vehicles model from the
 * compiled problem (neighbourhoodSettings), hgs from its identical-vehicles model (hgsSettings), the general
 * iterated local search from its problem data (perVehicleSettings), the decomposition from the
 * compiled problem (decompositionSettings). The service never overrides
 * them; benchmarks may, through a SettingsOverride on the Budget, to compare settings on the
 * same problems. The figures behind each choice are in BENCHMARKS.md.
 */
export interface SearchSettings {
  neighbourhood: NeighbourhoodSettings;
  hgs: HgsSettings;
  perVehicle: PerVehicleSettings;
  decomposition: DecompositionSettings;
}

/** What a benchmark may change (each field replaces the family's choice); the service passes none. */
export interface SettingsOverride {
  hgs?: Partial<SearchSettings["hgs"]>;
  /** `poolFamilies` opts the named families into set partitioning (by default none is). */
  perVehicle?: Partial<SearchSettings["perVehicle"]> & {
    poolFamilies?: readonly PoolFamily[];
    emptyTypeOrder?: EmptyTypeOrder;
    swapStarLocalised?: SwapStarLocalised;
  };
  decomposition?: Partial<SearchSettings["decomposition"]>;
  /** The identical-vehicles iterated search's education (ils/identical-vehicles-ils.ts): which customers it examines, and its repairs. */
  identicalVehicles?: {
    localised?: IdenticalVehiclesLocalised;
    repairOnceFeasible?: RepairsOnceFeasible;
    repairWithinReach?: boolean;
    repairScope?: RepairScope;
    swapStarLocalised?: SwapStarLocalised;
    /** Whether its localised runs examine the unserved optional customers near a changed one (LocalSearchSettings.unservedNearChanged). */
    unservedNearChanged?: boolean;
    /** Back to the best also after this share of the budget without a new best (ils/restarts.ts). */
    restartShare?: number;
    /** Its ruin opens a route around every this many served seeds (RuinSettings.seedRoutes; 0: never). */
    seedRoutes?: number;
    /** Whether its recreate puts an optional customer back only below a drawn share of its skip price (RuinSettings.leanRecreate). */
    leanRecreate?: boolean;
  };
  /** Told what the decomposition's route elimination tried, one line each (for studying it). */
  trace?: (line: string) => void;
}

// ---- the identical-vehicles model (search/identical-vehicles-model.ts) ----

/** Granular neighbours per customer in the identical-vehicles search. */
export const GRANULARITY = 20;
/**
 * Long routes under binding windows: more neighbours, since most of a customer's nearest are then
 * in its own route, which leaves its moves to other routes to a handful of pairs.
 */
export const WINDOWS_GRANULARITY = 40;
/** Customers per route, at the fewest routes the demand needs, from which routes count as long. */
const LONG_ROUTE = 25;
/** Customers above which the long-route settings apply (short routes and small problems do better without). */
const LONG_ROUTES_ABOVE = 200;

export interface NeighbourhoodSettings {
  /** Each customer's granular neighbours: this many nearest (by time-aware proximity under windows). */
  granularity: number;
  /** Long routes under binding windows: the local search's own settings for them (localSearchSettings). */
  longWindowRoutes: boolean;
}

/** The identical-vehicles model's neighbourhood for `p`; `windows`: binding windows priced by time warp on the request's own distances. */
export function neighbourhoodSettings(p: CompiledProblem, windows: boolean): NeighbourhoodSettings {
  const long = windows && longWindowRoutes(p);
  return { granularity: long ? WINDOWS_GRANULARITY : GRANULARITY, longWindowRoutes: long };
}

/**
 * Whether routes are long (longer than LONG_ROUTE customers at the capacity's fewest routes) on a problem of
 * more than LONG_ROUTES_ABOVE customers.
 */
function longWindowRoutes(p: CompiledProblem): boolean {
  const n = p.customers.length;
  if (n <= LONG_ROUTES_ABOVE) return false;
  let demand = 0;
  for (const c of p.customers) demand += p.demand[c]!;
  const fewest = Math.max(1, Math.ceil(demand / p.capacity[0]! - 1e-9));
  return n / fewest >= LONG_ROUTE;
}

// ---- hgs: which method searches an identical-vehicles problem ----

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
  override: SettingsOverride = {},
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

// ---- the identical-vehicles iterated local search's recreate (ils/identical-vehicles-ruin.ts) ----

/**
 * Where recreate puts each removed customer. "anywhere": its cheapest place among every position
 * of the routes near it (SISR's greedy insertion). "afterNeighbours": its cheapest place right
 * after one of its granular neighbours, or first in an empty route (PyVRP's insertion after its
 * perturbation). Long routes under binding windows take the second when every customer is
 * required: the rougher plan leaves the local search after it more to do, and the search settled
 * less early on a plan with a route too many. With optional customers that place is also the
 * price that decides whether a customer is served, and the rough one left out customers a better
 * place pays for (BENCHMARKS.md, GH-large).
 */
export type RecreatePlaces = "anywhere" | "afterNeighbours";

function recreatePlaces(m: ProblemData): RecreatePlaces {
  return m.longWindowRoutes && m.skipPrice === null ? "afterNeighbours" : "anywhere";
}

/** How the identical-vehicles ruin's size adapts (ils/ruin-strength.ts): growth per undone perturbation, largest multiple. */
export interface RuinStrengthSettings {
  growth: number;
  max: number;
}

/**
 * Long routes under binding windows, every customer required (the recreate after neighbours):
 * about half the candidates of SISR's usual ruin (10 customers on average) came back at the
 * current solution's cost, the local search putting the customers back where they were, so the
 * ruin grows while that happens, up to three times its usual size. With optional customers it
 * came out dearer (BENCHMARKS.md, GH-large); elsewhere the size stays SISR's (null).
 */
function ruinStrength(m: ProblemData): RuinStrengthSettings | null {
  return recreatePlaces(m) === "afterNeighbours" ? { growth: 0.05, max: 3 } : null;
}

/**
 * The identical-vehicles ruin (ils/identical-vehicles-ruin.ts). "strings": SISR's strings from the routes
 * near a random customer, which often empty a route and so bring the route count down.
 * "neighbourhood": PyVRP's perturbation, 1 to 25 of a random customer's granular neighbourhood
 * taken out route by route, each alone, which seldom empties a route.
 */
export type RuinShape = "strings" | "neighbourhood";

export interface RuinSettings {
  ruin: RuinShape;
  /** With the neighbourhood ruin, the share of perturbations that take SISR's strings instead. */
  stringsShare: number;
  places: RecreatePlaces;
  strength: RuinStrengthSettings | null;
  /**
   * Optional customers: on every this many ruins around a served seed, while the fleet has an empty
   * route, the ruin opens that route around the seed instead (search/moves/seed-route.ts); 0 (or none) never.
   */
  seedRoutes?: number;
  /**
   * Optional customers: after a ruin, the recreate puts a removed optional customer back only where
   * its place costs less than a share of its skip price drawn per perturbation in [0, 1]; the
   * local search after it serves again those that pay in the routes it rebuilt without them.
   */
  leanRecreate?: boolean;
}

/**
 * Whether an infeasible outcome still gets a repair attempt once a feasible plan is known: on half
 * of them (true), none (false), or on a share set by what repairs have paid so far (ils/repair-rule.ts).
 */
export type RepairsOnceFeasible = boolean | "byYield";

/**
 * Which customers a repair's localised runs examine (ils/identical-vehicles-parts.ts): "nearby",
 * those of the routes it rewrites and those that list one of them as a neighbour, as the
 * education's runs do; "routes", the rewritten routes' own customers only. A load or duration
 * excess is repaired by moving customers out of the routes that carry it, which their own
 * customers' moves find; the customers near them only price moves into those routes, and made
 * most of a repair's work. "routes" where the excess is load or duration; under binding windows,
 * where a time warp may also be relieved by what moves into a late route, "nearby", but for optional
 * customers on long routes: there a late route sheds its time warp by leaving stops out, its own
 * customers' moves, and a repair from nearby examined hundreds of customers, half the search's time.
 */
export type RepairScope = "nearby" | "routes";

export interface PerturbationSettings extends RuinSettings {
  repairOnceFeasible: RepairsOnceFeasible;
  /**
   * Once a feasible plan is known, repair only an outcome whose penalised cost is already below
   * what the acceptance would take or the best's cost (ils/identical-vehicles-parts.ts): on by
   * default, since the repairs of outcomes out of reach almost never became current or best and
   * took a large share of the search's time on large X-like instances. Not with optional
   * customers: there a repair may leave stops out at their price, so an outcome out of reach can
   * still repair into a plan that is accepted.
   */
  repairWithinReach: boolean;
  repairScope: RepairScope;
  /** Late acceptance's memory in iterations (null: the family's own, ils/identical-vehicles-ils.ts). */
  history: number | null;
}

/** SISR's ruin and recreate as the paper has them: the default wherever no family says otherwise. */
export const STRINGS_PERTURBATION: RuinSettings = { ruin: "strings", stringsShare: 1, places: "anywhere", strength: null };

/** Share of customers with a binding window (core/problem.ts bindingWindowShare) from which the windows set the routes. */
const WINDOWED_ROUTES = 0.7;
/** PyVRP's late-acceptance memory, which its perturbation goes with. */
const NEIGHBOURHOOD_HISTORY = 300;
/** Under the neighbourhood ruin, one perturbation in ten by SISR's strings, so that a route can still close. */
const STRINGS_AMONG_NEIGHBOURHOODS = 0.1;
/**
 * Optional customers on long routes: one ruin in this many around a served seed opens an empty
 * route there instead. Better plans there often use a route more than the search kept (a short one
 * near the depot, a far group on its own), and no single move opens it.
 */
const SEED_ROUTES = 4;

/** Optional customers on long windowed routes: the kind that lean recreates, seed routes and the routes' own repairs are for. */
function optionalOnLongRoutes(m: ProblemData): boolean {
  return m.skipPrice !== null && m.longWindowRoutes;
}

/** Whether the recreate after a ruin asks optional customers to pay for their place by a margin (RuinSettings.leanRecreate). */
function leanRecreate(m: ProblemData, override: SettingsOverride): boolean {
  return override.identicalVehicles?.leanRecreate ?? optionalOnLongRoutes(m);
}

/** Which customers a repair examines (RepairScope): nearby under windows, but for optional customers on long routes. */
function repairScopeOf(m: ProblemData): RepairScope {
  return m.windows && !optionalOnLongRoutes(m) ? "nearby" : "routes";
}

/** How often the ruin opens a route around a served seed (RuinSettings.seedRoutes). */
function seedRoutes(m: ProblemData, override: SettingsOverride): number {
  return override.identicalVehicles?.seedRoutes ?? (optionalOnLongRoutes(m) ? SEED_ROUTES : 0);
}

/**
 * The identical-vehicles iterated local search's perturbation. Long routes where seven customers in
 * ten or more have a binding window (and every customer is required) take PyVRP's perturbation step:
 * its neighbourhood ruin, recreate right after neighbours in random order, no repair once a
 * feasible plan is known (time warp is then only priced), and its late-acceptance memory; one
 * perturbation in ten still removes SISR's strings. There the windows more than the load set how
 * many routes a good plan has: SISR's strings alone kept closing routes the windows need, and the
 * neighbourhood alone left clustered customers a route or two too many. Where a quarter or half of
 * the customers have a window the strings alone are ahead (BENCHMARKS.md, GH-large).
 */
export function perturbationSettings(m: ProblemData, override: SettingsOverride = {}): PerturbationSettings {
  const places = recreatePlaces(m);
  const strength = ruinStrength(m);
  const repair = override.identicalVehicles?.repairOnceFeasible;
  const repairWithinReach = override.identicalVehicles?.repairWithinReach ?? m.skipPrice === null;
  const repairScope = override.identicalVehicles?.repairScope ?? repairScopeOf(m);
  if (places === "afterNeighbours" && bindingWindowShare(m.p, m.start[0]!) >= WINDOWED_ROUTES)
    return {
      ruin: "neighbourhood",
      stringsShare: STRINGS_AMONG_NEIGHBOURHOODS,
      places,
      strength,
      repairOnceFeasible: repair ?? false,
      repairWithinReach,
      repairScope,
      history: NEIGHBOURHOOD_HISTORY,
      seedRoutes: seedRoutes(m, override),
      leanRecreate: leanRecreate(m, override),
    };
  return {
    ruin: "strings",
    stringsShare: 1,
    places,
    strength,
    repairOnceFeasible: repair ?? true,
    repairWithinReach,
    repairScope,
    history: null,
    seedRoutes: seedRoutes(m, override),
    leanRecreate: leanRecreate(m, override),
  };
}

// ---- the iterated local search on any fleet (ils/per-vehicle-ils.ts) ----

/** Families where set partitioning over the route pool is off by default (see poolFamily). */
export type PoolFamily = "skills" | "types" | "depots";

export interface PerVehicleSettings {
  /**
   * Localised education: each education examines only the customers whose route neighbours
   * changed (search/changed-customers.ts); with long routes nearly every ruin touches most routes.
   */
  focus: boolean;
  /**
   * An infeasible candidate is always repaired and never becomes current once a feasible solution
   * is known, the prices adapt to the education's own outcome before repair, and with fixed costs
   * the load price never falls below its starting value.
   */
  feasibleCurrent: boolean;
  /** Acceptance by the annealed threshold with this starting weight (null: the family's own, per-vehicle-ils.ts). */
  thresholdWeight: number | null;
  /** Set-partitioning recombination of the route pool (ils/pool-recombination.ts). */
  setPartitioning: boolean;
}

/**
 * Mixed fleets without windows, rules or load order: all three parts, with the annealed threshold
 * at 0.2, since late acceptance there ends a run at the cost it reached early. Windows without
 * rules or load order (several depots with windows): the localised education and the feasible
 * current, with the family's late acceptance, which a threshold did not beat. Skills: the
 * localised education and the feasible current too (with SWAP*, localSearchSettings), whose
 * iterations, two to three times as many, reached fewer routes on generated skills instances.
 * Other rules (shifts, caps) and load order (shipments, backhauls): none, as the localised
 * education found no better solutions there. Set partitioning:
 * shipments on identical vehicles without rules, where the pool holds the better combinations;
 * re-plans with a reassignment cost, where it found cheaper plans on the larger instances (the
 * pool holds the priced routes of many local optima around the given plan); off for skills, mixed
 * fleets and several depots (unless opted in), where its solves rarely found a cheaper plan and
 * took a large share of the budget.
 */
export function perVehicleSettings(m: ProblemData, override: SettingsOverride = {}): PerVehicleSettings {
  // The empty vehicles' order and SWAP*'s turns belong to the local search (localSearchSettings), not to this mode.
  const { poolFamilies, emptyTypeOrder, swapStarLocalised, ...chosen } = override.perVehicle ?? {};
  const mode = reloadCopies(m)
    ? reloadMode(m)
    : m.order !== null
      ? OFF
      : m.rules !== null
        ? m.rules.allowed !== null
          ? WINDOWS
          : OFF
        : m.twStart !== null
          ? WINDOWS
          : m.typeSlots.length > 1
            ? TYPES
            : OFF;
  return { ...mode, setPartitioning: setPartitioning(m, poolFamilies ?? []), ...chosen };
}

function setPartitioning(m: ProblemData, optedIn: readonly PoolFamily[]): boolean {
  // A set partition sums route prices; the balance term is the plan's largest workload, no sum.
  if (m.p.balance) return false;
  // Re-plans priced by a reassignment cost: each vehicle is its own group of the pool
  // (search/pool/route-pool.ts PoolGroups), so a route keeps its vehicle's price.
  if (m.reassignment !== null) return true;
  if (m.order?.partner != null) return m.typeSlots.length === 1 && m.rules === null;
  const family = poolFamily(m);
  return family !== null && optedIn.includes(family);
}

/** Whether the problem holds reload copies (search/trip-copies.ts), which bring rules of their own. */
const reloadCopies = (m: ProblemData) => m.p.trips?.copyOf !== undefined;
/**
 * Several trips: the copies make rules, but under windows the windows' mode (localised, feasible
 * current) came out ahead on MTVRPTWR at equal iterations, and faster per iteration.
 */
const reloadMode = (m: ProblemData) => (m.twStart !== null ? WINDOWS : OFF);

const OFF = { focus: false, feasibleCurrent: false, thresholdWeight: null };
const WINDOWS = { focus: true, feasibleCurrent: true, thresholdWeight: null };
const TYPES = { focus: true, feasibleCurrent: true, thresholdWeight: 0.2 };

/** The family a problem belongs to for set partitioning (null: none of the opt-in ones). */
export function poolFamily(m: ProblemData): PoolFamily | null {
  if (m.order !== null) return null;
  if (m.rules?.allowed != null) return "skills";
  if (m.rules !== null) return null;
  if (new Set(m.start).size > 1 || new Set(m.end).size > 1) return "depots";
  return m.typeSlots.length > 1 ? "types" : null;
}

// ---- the local search (search/local-search.ts) ----

/**
 * How the local search prices a candidate (search/pricing/): "identicalVehicles", one vehicle
 * type from one depot (the identical-vehicles model, read as slot 0), from route totals with an absolute
 * tolerance; "perVehicle", any fleet, bounded from totals then exact on each vehicle, relative tolerance.
 */
export type MovePricingKind = "identicalVehicles" | "perVehicle";

export interface LocalSearchSettings {
  pricing: MovePricingKind;
  /**
   * Moves into an empty route. "fromSecondPass": none on a run's first pass, then into the first
   * empty route, for every customer in a full run and in a localised one for a customer whose
   * route changed since it was last examined. "whenRouteChanged": on every pass, for such a
   * customer, into one empty vehicle of each type (empty vehicles of a type are alike).
   */
  emptyRoutes: "fromSecondPass" | "whenRouteChanged";
  /** In which order the empty vehicles of each type are tried, by the moves and by the iterated search's recreate (EmptyTypeOrder). */
  emptyTypeOrder: EmptyTypeOrder;
  /**
   * SWAP* after each pass of a full run (null: never): "allPairs" tests every pair of neighbouring
   * routes on the first pass, "changedPairs" only pairs with a route changed since the pair was
   * last tested, across runs. A localised run tests changed pairs only.
   */
  swapStar: "allPairs" | "changedPairs" | null;
  /** When a localised run (an iterated search's education) tries SWAP*, given swapStar (SwapStarLocalised). */
  swapStarLocalised: SwapStarLocalised;
  /**
   * After each pass a route may move to a free vehicle of another type, or two swap vehicles
   * (moves/vehicle-change.ts, which itself returns at once when the fleet leaves it nothing to do).
   */
  vehicleChange: boolean;
  /** Shipments move whole (moves/pair-*.ts): a stop never moves alone to another route. */
  shipmentMoves: boolean;
  /**
   * Backhauls on the route model (the identical-vehicles model prices them by arcs):
   * moves/linehaul-two-opt-star.ts, backhaul-pairing.ts.
   */
  backhaulMoves: boolean;
  /** Reload stops (search/trip-copies.ts) move within their vehicle's route and enter it when unserved (moves/reload-insert.ts). */
  reloadMoves: boolean;
  /**
   * Optional stops (null: none). "untilRepriced": an unserved stop no insertion improved is tried
   * next only on routes rewritten since, until the prices change, within the insertion bounds
   * (operators/insert-unserved.ts); a served one may leave at every examination.
   * "whenNearbyChanged": an unserved stop is tried when a route next to it changed, every
   * insertion priced (the bounds are not checked against rules); a served one may leave when its
   * route changed.
   */
  optionalStops: "untilRepriced" | "whenNearbyChanged" | null;
  /** Each run and each load examines every customer again; otherwise the marks last until `forget()`. */
  freshRuns: boolean;
  /**
   * Which customers a localised search examines: "promisingCustomers", those of the routes
   * rewritten since the last pass and the customers that list them as neighbours (runLocalised);
   * "changedNeighbours", as runLocalised but of the rewritten routes only the customers whose
   * route neighbours changed; "changedCustomers", those whose route neighbours changed since
   * `focus()` (run).
   */
  localised: IdenticalVehiclesLocalised | "changedCustomers";
  /**
   * With "changedNeighbours" and optional stops: an unserved customer is promising when it lists a
   * changed customer as a granular neighbour, so that a localised run tries to serve it there, as
   * the full runs and "promisingCustomers" do. Without it the iterated search's localised runs on
   * long routes could take optional customers out but never put one back, and only its recreate
   * chose which were served.
   */
  unservedNearChanged: boolean;
}

/**
 * How a customer is offered the empty vehicles of the fleet's types. "cheapest": every type in
 * vehicle order (a move applies each improving one in turn, a recreate takes the cheapest), so a
 * lone customer ends on the type cheapest for it alone. "shuffled": the types in an order drawn
 * afresh for each local-search run and each reinsertion, the first improving one taken. Greedy
 * over types, the cheapest per distance (the smallest vehicles under per-distance costs) opens
 * nearly every new route, and the routes of larger vehicles that would pool those customers are
 * never started; PyVRP orders its empty-route moves at random for the same reason.
 */
export type EmptyTypeOrder = "cheapest" | "shuffled";

/**
 * When a localised run tries SWAP*: "everyPass", after each pass; "idlePass", only after a pass
 * whose customer moves found nothing, since a pass that moved customers is followed by another
 * that rewrites some of the same routes, and SWAP* priced on them again; "never".
 */
export type SwapStarLocalised = "everyPass" | "idlePass" | "never";

/** The localised runs of the identical-vehicles search (LocalSearchSettings.localised). */
export type IdenticalVehiclesLocalised = "promisingCustomers" | "changedNeighbours";

/**
 * The local search for `m` priced as `pricing` says: on identical vehicles (hgs's genetic and
 * iterated searches) the identical-vehicles method's loop, on any fleet (the general iterated search)
 * PyVRP's with the moves of its rules. SWAP* there without time windows or rules, and with
 * skills (skillsWithExactTimes), never with shipments or locks: under windows alone its
 * distance-chosen places mostly fail the exact time check and its tables cost time the other
 * moves use better (MDVRPTW, BENCHMARKS.md); with shipments it would only split pairs; it prices
 * from totals, past the locks. Skills under hard windows try it in the education only after a
 * pass that moved nothing: a pass that moved customers is followed by another that rewrites some of
 * the same routes, which SWAP* (about a third of the search's time there) would price again.
 */
export function localSearchSettings(m: ProblemData, pricing: MovePricingKind, override: SettingsOverride = {}): LocalSearchSettings {
  if (pricing === "identicalVehicles") {
    const optionalStops = m.skipPrice ? "untilRepriced" : null;
    const none = { vehicleChange: false, shipmentMoves: false, backhaulMoves: false, reloadMoves: false };
    // Binding windows (every customer required, no backhauls): the iterated search's localised runs
    // leave SWAP* out, as PyVRP's iterated search does; its distance-chosen exchanges mostly fail the
    // exact time check there, and the time it took went to more iterations, level or better on
    // generated VRPTWs. Without windows it stays: on generated CVRPs its exchanges paid for their time.
    const plainWindows = m.windows !== null && m.skipPrice === null && !m.richLoads;
    // Long routes under binding windows (neighbourhoodSettings): a rewritten route's customers and
    // everyone near them were most of the customers after every ruin, and SWAP*'s distance-chosen
    // exchanges nearly always failed the exact time check there while taking a third of the time;
    // both went to more iterations of the other moves (BENCHMARKS.md, GH-large).
    const long = m.longWindowRoutes;
    return {
      pricing,
      emptyRoutes: "fromSecondPass",
      emptyTypeOrder: "cheapest",
      swapStar: long ? null : "allPairs",
      swapStarLocalised: override.identicalVehicles?.swapStarLocalised ?? (plainWindows ? "never" : "everyPass"),
      ...none,
      optionalStops,
      freshRuns: true,
      localised: override.identicalVehicles?.localised ?? (long ? "changedNeighbours" : "promisingCustomers"),
      unservedNearChanged: override.identicalVehicles?.unservedNearChanged ?? optionalStops !== null,
    };
  }
  const swapStar = !m.order?.partner && m.locks === null && ((m.twStart === null && m.rules === null) || skillsWithExactTimes(m));
  return {
    pricing,
    emptyRoutes: "whenRouteChanged",
    emptyTypeOrder: override.perVehicle?.emptyTypeOrder ?? (mixedFleet(m) ? "shuffled" : "cheapest"),
    swapStar: swapStar ? "changedPairs" : null,
    swapStarLocalised:
      override.perVehicle?.swapStarLocalised ?? (m.rules?.allowed != null && m.windows !== null ? "idlePass" : "everyPass"),
    vehicleChange: true,
    shipmentMoves: m.order?.partner != null,
    backhaulMoves: m.order?.backhaul != null,
    reloadMoves: m.p.trips != null,
    optionalStops: m.rules !== null && m.rules.anyOptional ? "whenNearbyChanged" : null,
    freshRuns: false,
    localised: "changedCustomers",
    unservedNearChanged: false,
  };
}

/**
 * Skills (without several trips) where SWAP*'s exact check prices time on the route model (no
 * windows; hard windows on time segments; soft or several windows on the stored schedules), not
 * with breaks, which only the evaluator prices. With the localised education it reached lower costs
 * on generated skills instances and on SDVRPTW, under hard and soft windows (BENCHMARKS.md, SDVRPTW).
 */
/**
 * A mixed fleet in the HFVRP manner: vehicles that differ in capacity, fixed or unit cost, without
 * windows, rules or load order, where the empty vehicles' order (EmptyTypeOrder) decides which
 * types new routes start on. Elsewhere (vehicles that differ only in depot, speed or rules; windows;
 * skills) the cheapest order stays, which the shuffled one was not measured against there.
 */
function mixedFleet(m: ProblemData): boolean {
  if (m.twStart !== null || m.rules !== null || m.order !== null || m.p.trips) return false;
  for (let r = 1; r < m.routes; r++) {
    if (m.capacity[r] !== m.capacity[0] || m.fixedCost[r] !== m.fixedCost[0] || m.unitCost[r] !== m.unitCost[0]) return true;
  }
  return false;
}

function skillsWithExactTimes(m: ProblemData): boolean {
  if (m.rules?.allowed == null || m.p.trips) return false;
  return m.twStart === null || (!hasBreaks(m.p) && !m.p.travel?.traffic);
}

// ---- the decomposition of large problems (strategies/large) ----

/**
 * Identical-vehicles problems: hgs searches their sub-problems with its fast identical-vehicles iterated local search,
 * whose iterations cost milliseconds, so large groups with generous time win.
 */
export const SUB_PROBLEM_CUSTOMERS = 500;
export const SUB_SECONDS = 0.65;
/**
 * Everything else goes to hgs's general search, slower per iteration: small groups with a short
 * search each stay ahead there.
 */
export const GENERAL_SUB_PROBLEM_CUSTOMERS = 50;
export const GENERAL_SUB_SECONDS = 0.01;
/** Share of the budget the first solution may take beyond its first savings variant (large/start.ts). */
export const START_SHARE = 0.1;

export interface DecompositionSettings {
  /** Customers per sub-problem: a group of whole routes grows until it holds this many (and at least three routes). */
  customers: number;
  /** hgs seconds for a group of `customers` customers (a larger group gets proportionally more). */
  seconds: number;
  /** Whether group seeds go round the solution (decomposition/rotation.ts) or are drawn at random. */
  rotation: boolean;
  /**
   * Share of `seconds` a group gets during the first round of the rotation; 0: by the expected
   * number of rounds (large/settings.ts firstRoundShare). General sub-problems get their full,
   * already short, time from the first round on.
   */
  firstRoundShare: number;
  /** Whether the loop tries to eliminate routes (large/squeeze.ts). */
  squeeze: boolean;
  /**
   * Whether groups grow on time-aware neighbour links (decomposition/window-near.ts) instead of
   * spatial ones; off by default, since it was not better, and only ever on for identical-vehicles problems
   * with binding hard windows and no load rules.
   */
  windowGroups: boolean;
  /** Share of the budget the first solution's savings variants may take (large/start.ts). */
  startShare: number;
}

/**
 * The decomposition's settings for `p`, by the method hgs uses on its sub-problems: `identical-vehicles`
 * when the identical-vehicles model fits it (search/identical-vehicles-model.ts identicalVehiclesMismatch is null).
 */
export function decompositionSettings(
  p: CompiledProblem,
  identicalVehicles: boolean,
  override: SettingsOverride = {},
): DecompositionSettings {
  const { windowGroups, ...chosen } = override.decomposition ?? {};
  return {
    customers: identicalVehicles ? SUB_PROBLEM_CUSTOMERS : GENERAL_SUB_PROBLEM_CUSTOMERS,
    seconds: identicalVehicles ? SUB_SECONDS : GENERAL_SUB_SECONDS,
    rotation: true,
    firstRoundShare: identicalVehicles ? 0 : 1,
    squeeze: true,
    startShare: START_SHARE,
    ...chosen,
    windowGroups: windowGroups === true && identicalVehicles && windowGroupsFit(p),
  };
}

/** Binding hard windows and no load rules (on an identical-vehicles problem: one depot, identical vehicles). */
function windowGroupsFit(p: CompiledProblem): boolean {
  if (!p.time || p.loads) return false;
  return windowsBindAgainst(p, p.startNode[0]!);
}
