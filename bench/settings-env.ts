/**
 * The benchmarks' switches for comparing search settings on the same problems, read from the
 * environment here so that the solver reads none: importing this module turns
 * SOLVER_CLOCK=cpu into the CPU clock (strategies/core/clock.ts), and `benchSettings` is the
 * override (strategies/settings.ts) that a benchmark passes to every solve. The variables:
 * - HGS_WINDOWS_METHOD=genetic|iterated|general: hgs's method for identical-vehicles problems with binding
 *   windows (general also for optional stops: the general iterated local search).
 * - HGS_OFFSPRING_SEARCH=everyCustomer|changedCustomers: which customers the genetic search's
 *   education of an offspring examines.
 * - HGS_CAPACITY_METHOD=genetic|iterated: hgs's method for identical-vehicles problems without binding windows.
 * - SOLVER_GENERAL_FOCUS=0: the general search without localised education, feasible current and
 *   family threshold.
 * - SOLVER_POOL_FAMILIES=skills,types,depots: set partitioning in those families too.
 * - SOLVER_EMPTY_TYPES=cheapest|shuffled: in which order the general search offers a customer the
 *   vehicle types' empty vehicles (settings.ts EmptyTypeOrder; shuffled by default on mixed fleets
 *   without windows or rules, cheapest elsewhere).
 * - SOLVER_GENERAL_SWAPSTAR=everyPass|idlePass|never: when the general search's localised runs try
 *   SWAP* (settings.ts SwapStarLocalised; everyPass by default).
 * - SOLVER_GENERAL_RUIN_STRENGTH=0|M: the general search's ruin keeps its size (0), or grows up to M times
 *   it while the education undoes the perturbations on a full fleet (settings.ts PerVehicleSettings.ruinStrength;
 *   by default 3 on skills problems, fixed elsewhere).
 * - SOLVER_GENERAL_FEASIBLE_CURRENT=0|1: whether the general search keeps a feasible current solution
 *   (settings.ts PerVehicleSettings.feasibleCurrent; 0 lets a penalised-cheaper infeasible candidate in).
 * - SOLVER_THRESHOLD=W: the general search accepts by the annealed threshold with starting weight W.
 * - SOLVER_ILS_LOCALISED=promisingCustomers|changedNeighbours: which customers the identical-vehicles
 *   iterated search's education examines; SOLVER_ILS_REPAIR=0|1|byYield: whether it still repairs half the
 *   infeasible outcomes once a feasible plan is known, or a share set by what repairs paid so far
 *   (bench/iteration-anatomy.ts counts them); SOLVER_ILS_REPAIR_REACH=0|1: whether it repairs only
 *   outcomes within reach of acceptance or a new best (bench/repair-counts.ts counts what repairs do);
 *   SOLVER_ILS_REPAIR_SCOPE=nearby|routes: which customers a repair examines (settings.ts RepairScope);
 *   SOLVER_ILS_SWAPSTAR=everyPass|idlePass|never: when its localised runs try SWAP* (settings.ts SwapStarLocalised);
 *   SOLVER_ILS_UNSERVED=0|1: whether its localised runs on long routes examine the unserved optional
 *   customers near a changed one (settings.ts unservedNearChanged); SOLVER_ILS_SEED_ROUTES=N: its ruin opens
 *   an empty route around every N-th served seed, 0 never (settings.ts RuinSettings.seedRoutes);
 *   SOLVER_ILS_LEAN_RECREATE=0|1: whether its recreate asks optional customers to pay for their place by
 *   a drawn margin (settings.ts RuinSettings.leanRecreate).
 * - LARGE_SUB_CUSTOMERS, LARGE_SUB_SECONDS, LARGE_FIRST_ROUND (a fixed first-round share),
 *   LARGE_START_SHARE (0: the savings' first variant only), LARGE_ROTATION=0 (random group seeds),
 *   LARGE_SQUEEZE=0 (no route elimination), LARGE_WINDOW_GROUPS=1 (time-aware groups),
 *   LARGE_SQUEEZE_LOG=1 (each route elimination attempt on stderr): the decomposition's.
 */
import { useCpuClock } from "../strategies/core/clock.js";
import type { PoolFamily, SettingsOverride } from "../strategies/settings.js";

const POOL_FAMILIES: readonly PoolFamily[] = ["skills", "types", "depots"];

/** The override the variables in `env` ask for (empty when none is set). */
export function settingsFromEnv(env: NodeJS.ProcessEnv): SettingsOverride {
  const out: SettingsOverride = {};
  const method = env.HGS_WINDOWS_METHOD;
  if (method === "genetic" || method === "iterated") out.hgs = { windowsMethod: method };
  if (method === "general") out.hgs = { windowsMethod: "general", optionalStopsMethod: "general" };
  const offspring = env.HGS_OFFSPRING_SEARCH;
  if (offspring === "everyCustomer" || offspring === "changedCustomers") out.hgs = { ...out.hgs, offspringSearch: offspring };
  const capacity = env.HGS_CAPACITY_METHOD;
  if (capacity === "genetic" || capacity === "iterated") out.hgs = { ...out.hgs, capacityMethod: capacity };

  const general: NonNullable<SettingsOverride["perVehicle"]> = {};
  if (env.SOLVER_GENERAL_FOCUS === "0") Object.assign(general, { focus: false, feasibleCurrent: false, thresholdWeight: null });
  const threshold = Number(env.SOLVER_THRESHOLD);
  if (env.SOLVER_THRESHOLD !== undefined && Number.isFinite(threshold) && threshold >= 0) general.thresholdWeight = threshold;
  if (env.SOLVER_POOL_FAMILIES) {
    const named = env.SOLVER_POOL_FAMILIES.split(",").map((name) => name.trim());
    general.poolFamilies = POOL_FAMILIES.filter((family) => named.includes(family));
  }
  const emptyTypes = env.SOLVER_EMPTY_TYPES;
  if (emptyTypes === "cheapest" || emptyTypes === "shuffled") general.emptyTypeOrder = emptyTypes;
  const generalSwapStar = env.SOLVER_GENERAL_SWAPSTAR;
  if (generalSwapStar === "everyPass" || generalSwapStar === "idlePass" || generalSwapStar === "never")
    general.swapStarLocalised = generalSwapStar;
  if (env.SOLVER_GENERAL_FEASIBLE_CURRENT === "0" || env.SOLVER_GENERAL_FEASIBLE_CURRENT === "1")
    general.feasibleCurrent = env.SOLVER_GENERAL_FEASIBLE_CURRENT === "1";
  const ruinStrength = env.SOLVER_GENERAL_RUIN_STRENGTH;
  if (ruinStrength === "0") general.ruinStrength = null;
  else if (ruinStrength !== undefined && Number(ruinStrength) > 1) general.ruinStrength = { growth: 0.05, max: Number(ruinStrength) };
  if (Object.keys(general).length > 0) out.perVehicle = general;

  const identical: NonNullable<SettingsOverride["identicalVehicles"]> = {};
  const localised = env.SOLVER_ILS_LOCALISED;
  if (localised === "promisingCustomers" || localised === "changedNeighbours") identical.localised = localised;
  if (env.SOLVER_ILS_REPAIR === "0" || env.SOLVER_ILS_REPAIR === "1") identical.repairOnceFeasible = env.SOLVER_ILS_REPAIR === "1";
  if (env.SOLVER_ILS_REPAIR === "byYield") identical.repairOnceFeasible = "byYield";
  if (env.SOLVER_ILS_REPAIR_REACH === "0" || env.SOLVER_ILS_REPAIR_REACH === "1")
    identical.repairWithinReach = env.SOLVER_ILS_REPAIR_REACH === "1";
  const scope = env.SOLVER_ILS_REPAIR_SCOPE;
  if (scope === "nearby" || scope === "routes") identical.repairScope = scope;
  const swapStar = env.SOLVER_ILS_SWAPSTAR;
  if (swapStar === "everyPass" || swapStar === "idlePass" || swapStar === "never") identical.swapStarLocalised = swapStar;
  if (env.SOLVER_ILS_UNSERVED === "0" || env.SOLVER_ILS_UNSERVED === "1") identical.unservedNearChanged = env.SOLVER_ILS_UNSERVED === "1";
  const seedRoutes = Number(env.SOLVER_ILS_SEED_ROUTES);
  if (env.SOLVER_ILS_SEED_ROUTES !== undefined && Number.isInteger(seedRoutes) && seedRoutes >= 0) identical.seedRoutes = seedRoutes;
  if (env.SOLVER_ILS_LEAN_RECREATE === "0" || env.SOLVER_ILS_LEAN_RECREATE === "1")
    identical.leanRecreate = env.SOLVER_ILS_LEAN_RECREATE === "1";
  if (Object.keys(identical).length > 0) out.identicalVehicles = identical;

  // A number that is not one (or is out of range) leaves the family's setting.
  const number = (name: string, ok: (value: number) => boolean): number | undefined => {
    const value = Number(env[name]);
    return env[name] !== undefined && Number.isFinite(value) && ok(value) ? value : undefined;
  };
  const positive = (value: number) => value > 0;
  const decomposition: NonNullable<SettingsOverride["decomposition"]> = {};
  const customers = number("LARGE_SUB_CUSTOMERS", positive);
  if (customers !== undefined) decomposition.customers = Math.round(customers);
  const seconds = number("LARGE_SUB_SECONDS", positive);
  if (seconds !== undefined) decomposition.seconds = seconds;
  const firstRound = number("LARGE_FIRST_ROUND", positive);
  if (firstRound !== undefined) decomposition.firstRoundShare = firstRound;
  const startShare = number("LARGE_START_SHARE", (value) => value >= 0);
  if (startShare !== undefined) decomposition.startShare = startShare;
  if (env.LARGE_ROTATION === "0") decomposition.rotation = false;
  if (env.LARGE_SQUEEZE === "0") decomposition.squeeze = false;
  if (env.LARGE_WINDOW_GROUPS === "1") decomposition.windowGroups = true;
  if (Object.keys(decomposition).length > 0) out.decomposition = decomposition;

  if (env.LARGE_SQUEEZE_LOG) out.trace = (line) => console.error(line);
  return out;
}

if (process.env.SOLVER_CLOCK === "cpu") useCpuClock();

/** This process's override, from its environment. */
export const benchSettings: SettingsOverride = settingsFromEnv(process.env);
