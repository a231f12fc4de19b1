import { bindingWindowShare } from "../core/problem.js";
import type { ProblemData } from "../search/problem-data.js";

/**
 * The identical-vehicles iterated local search's perturbation (ils/identical-vehicles-ruin.ts) and
 * what follows it: the ruin's shape and size, where the recreate puts customers back, the repairs,
 * the acceptance's memory.
 */

/** What a benchmark may change in the identical-vehicles iterated search's perturbation, repairs and restarts. */
export interface PerturbationOverride {
  identicalVehicles?: {
    repairOnceFeasible?: RepairsOnceFeasible;
    repairWithinReach?: boolean;
    repairScope?: RepairScope;
    /** Back to the best also after this share of the budget without a new best (ils/restarts.ts). */
    restartShare?: number;
    /** Its ruin opens a route around every this many served seeds (RuinSettings.seedRoutes; 0: never). */
    seedRoutes?: number;
    /** Whether its recreate puts an optional customer back only below a drawn share of its skip price (RuinSettings.leanRecreate). */
    leanRecreate?: boolean;
  };
}

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
function leanRecreate(m: ProblemData, override: PerturbationOverride): boolean {
  return override.identicalVehicles?.leanRecreate ?? optionalOnLongRoutes(m);
}

/** Which customers a repair examines (RepairScope): nearby under windows, but for optional customers on long routes. */
function repairScopeOf(m: ProblemData): RepairScope {
  return m.windows && !optionalOnLongRoutes(m) ? "nearby" : "routes";
}

/** How often the ruin opens a route around a served seed (RuinSettings.seedRoutes). */
function seedRoutes(m: ProblemData, override: PerturbationOverride): number {
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
export function perturbationSettings(m: ProblemData, override: PerturbationOverride = {}): PerturbationSettings {
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
