import type { Rng } from "../core/rng.js";
import { localSearchSettings, type LocalSearchSettings, type SettingsOverride } from "../settings.js";
import type { CostEvaluator } from "./cost-evaluator.js";
import { CustomerMoves, EMPTY_ALWAYS, EMPTY_IF_CHANGED, EMPTY_NEVER } from "./customer-moves.js";
import { repairBackhaulPairing } from "./moves/backhaul-pairing.js";
import { SwapStar, type SwapStarHost } from "./moves/swap-star.js";
import { FleetUse } from "./moves/vehicle-change.js";
import type { MovePricing, RouteWriter } from "./operators/operator.js";
import type { Penalties } from "./penalties.js";
import { IdenticalVehiclesPricing } from "./pricing/identical-vehicles.js";
import { PerVehiclePricing } from "./pricing/per-vehicle.js";
import type { ProblemData } from "./problem-data.js";
import { PromisingCustomers } from "./promising-customers.js";
import { Routes } from "./routes.js";

/** Customers examined between two looks at the stop condition. */
const STOP_CHECK = 16;

/**
 * Granular local search (Vidal 2022; PyVRP's LocalSearch): for each customer in random order, its
 * moves towards each granular neighbour's route, first improvement (customer-moves.ts: relocate
 * one or two customers, also reversed, swap 1-1, 2-1 and 2-2, 2-opt within a route, both 2-opt*
 * variants between routes, one class per move in operators/), then after each pass SWAP* between
 * neighbouring routes (moves/swap-star.ts) and, on mixed fleets, vehicle changes; until a pass
 * finds nothing. Prices are penalised, so that overloaded or late routes are allowed but priced,
 * in O(1) from the route store's prefix sums where the pricing can (pricing/). It owns the route
 * store `rs` and the pricing by composition; what differs by problem family (which moves, when
 * empty routes are tried, which customers a localised run examines) is chosen once, from
 * LocalSearchSettings (strategies/settings.ts). Property tests check each applied move against
 * the evaluator through `onCommit`.
 */
export class LocalSearch<P extends MovePricing = MovePricing> implements SwapStarHost, RouteWriter {
  readonly m: ProblemData;
  readonly costs: CostEvaluator;
  /** Clock of each customer's last examination (-1: never). */
  private readonly testedAt: Float64Array;
  private readonly moves: CustomerMoves;
  private readonly swapStar: SwapStar | null;
  /** Where every rewritten route goes: the store, through the promising customers when they are tracked. */
  private readonly writer: RouteWriter;
  private readonly promising: PromisingCustomers | null;
  private readonly promisingOrder: Int32Array;
  /** The vehicle-change and backhaul pairing moves price per vehicle (null when they are off). */
  private readonly perVehicle: PerVehiclePricing | null;
  /** The vehicle changes after each pass, with their memory of what did not pay (null when they are off). */
  private readonly fleetUse: FleetUse | null;
  /**
   * Focused runs (settings.localised "changedCustomers"): customers whose route neighbours did
   * not change since this clock value are not examined (-1: every customer is).
   */
  private focusSince = -1;
  /** Customers the localised runs examined so far: the work a caller weighs a run by, the same on any machine. */
  examined = 0;

  /**
   * The search on a model of identical vehicles from one depot (identical-vehicles-model.ts), with a route
   * store of its own; `override`: a benchmark's (strategies/settings.ts).
   */
  static identicalVehicles(m: ProblemData, override: SettingsOverride = {}): LocalSearch<IdenticalVehiclesPricing> {
    const rs = new Routes(m);
    const settings = localSearchSettings(m, "identicalVehicles", override);
    const promising = new PromisingCustomers(
      m,
      rs,
      settings.localised === "changedNeighbours",
      settings.unservedNearChanged && m.skipPrice !== null,
    );
    return new LocalSearch(rs, settings, new IdenticalVehiclesPricing(rs, promising), promising);
  }

  /** The search on any fleet over route store `rs`; `override`: a benchmark's (strategies/settings.ts). */
  static perVehicle(rs: Routes, override: SettingsOverride = {}): LocalSearch<PerVehiclePricing> {
    return new LocalSearch(rs, localSearchSettings(rs.m, "perVehicle", override), new PerVehiclePricing(rs), null);
  }

  private constructor(
    readonly rs: Routes,
    readonly settings: LocalSearchSettings,
    readonly pricing: P,
    promising: PromisingCustomers | null,
  ) {
    const m = (this.m = rs.m);
    this.costs = rs.costs;
    this.promising = promising;
    this.writer = promising ?? rs;
    this.perVehicle = pricing instanceof PerVehiclePricing ? pricing : null;
    this.testedAt = new Float64Array(m.nodeCount);
    this.promisingOrder = new Int32Array(promising ? m.nodeCount : 0);
    this.moves = new CustomerMoves(rs, settings, pricing, this.perVehicle, this.testedAt);
    this.swapStar = settings.swapStar ? new SwapStar(this) : null;
    this.fleetUse = settings.vehicleChange ? new FleetUse(this.perVehicle!) : null;
  }

  /** Scratch buffers (SWAP*'s rewrites share the pricing's). */
  get scratch(): Int32Array {
    return this.pricing.outA;
  }

  get scratch2(): Int32Array {
    return this.pricing.outB;
  }

  get onCommit(): ((predicted: number, ra: number, rb: number) => void) | null {
    return this.pricing.onCommit;
  }

  /** Test hook: told of every applied move with the price it was predicted at and the routes it rewrote (rb = -1: one route). */
  set onCommit(f: ((predicted: number, ra: number, rb: number) => void) | null) {
    this.pricing.onCommit = f;
  }

  get clock(): number {
    return this.rs.clock;
  }

  get penalties(): Penalties {
    return this.rs.penalties;
  }

  set penalties(pen: Penalties) {
    this.rs.penalties = pen;
  }

  /**
   * Loads routes (customers only, one list per vehicle, missing lists empty; customers on none
   * are unrouted). With fresh runs every route is rewritten and every customer examined again;
   * otherwise routes that already hold their list keep their modification time.
   */
  loadRoutes(routes: readonly (readonly number[])[]): void {
    if (!this.settings.freshRuns) {
      this.rs.loadRoutes(routes);
      return;
    }
    // Optional customers may be on no route: forget every place first (setRoute keeps old ones).
    if (this.m.skipPrice) this.rs.routeOf.fill(-1);
    const buf = this.pricing.outA;
    for (let r = 0; r < this.m.routes; r++) {
      const route = routes[r] ?? [];
      for (let k = 0; k < route.length; k++) buf[k] = route[k]!;
      this.writer.setRoute(r, buf, route.length);
    }
    this.testedAt.fill(-1);
    this.moves.forgetUnserved();
  }

  /** Rewrites route r as `customers[0..count)`, recorded as the search's own moves are. */
  setRoute(r: number, customers: Int32Array, count: number): void {
    this.writer.setRoute(r, customers, count);
  }

  /** Marks route r as rewritten (unchanged), so that a localised search examines it again (e.g. after its prices rose). */
  markChanged(r: number): void {
    this.rs.modifiedAt[r] = ++this.rs.clock;
    this.promising?.touch(r);
  }

  /** Re-prices every route after the penalties changed. */
  reprice(): void {
    this.rs.reprice();
    if (this.settings.optionalStops === "untilRepriced") this.moves.repricedAt = ++this.rs.clock;
  }

  /**
   * Forgets which moves were already found not to improve: needed when the prices changed
   * (penalties) and runs are not fresh, since the search otherwise skips a customer whose routes
   * are unchanged since it was last tested, across runs (so that after a ruin only the touched
   * routes are searched).
   */
  forget(): void {
    this.testedAt.fill(-1);
    this.swapStar?.forget();
  }

  /**
   * From now on a run examines only the customers whose route neighbours change after this call
   * (the next ruin and recreate's, then its own moves'), as PyVRP's promising clients: the routes
   * held now are taken as a local optimum. Needs the route model's change record (Routes.trackChanges);
   * without it every run examines every customer of every changed route, as before.
   */
  focus(): void {
    if (this.rs.changes) this.focusSince = this.rs.clock;
  }

  /**
   * After a penalty change: only routes that violate a constraint changed price, so only they
   * (and moves touching them) are searched again; cheaper than forget() on large problems.
   */
  revisitViolating(): void {
    const rs = this.rs;
    for (let r = 0; r < rs.m.routes; r++) {
      if (
        rs.loadExcess[r]! > 0 ||
        rs.timeWarp[r]! > 0 ||
        rs.durationExcess[r]! > 0 ||
        rs.distanceExcess[r]! > 0 ||
        rs.stopsExcess[r]! > 0
      ) {
        this.markChanged(r);
        // A localised run examines the violating routes' customers again too.
        const seq = rs.seq[r]!;
        if (rs.changes) for (let k = 1; k <= rs.length[r]!; k++) rs.changes.touch(seq[k]!, rs.clock);
      }
    }
  }

  /**
   * Runs to a local optimum, or until `stop()` says so (checked every STOP_CHECK customers, so a
   * long descent on a large instance honours the deadline). The customers are shuffled here so
   * that successive calls explore differently; neighbour lists are visited nearest first. After
   * `focus()`, only the changed customers are examined. Returns false when stopped early.
   */
  run(rng: Rng, stop: () => boolean = () => false): boolean {
    const rs = this.rs;
    const order = Array.from(this.m.customers);
    rng.shuffle(order);
    this.moves.shuffleTypes(rng);
    if (this.settings.freshRuns) this.forget();
    const changedAt = rs.changes && this.focusSince >= 0 ? rs.changes.changedAt : null;
    const since = this.focusSince;
    const fromSecondPass = this.settings.emptyRoutes === "fromSecondPass";
    // A focused run of the general search is its iterated search's education: SWAP* comes when
    // swapStarLocalised says, as in runLocalised.
    const educating = changedAt !== null && this.settings.localised === "changedCustomers";
    let improved = true;
    let loop = 0;
    let checked = 0;
    // At least two passes: moves into empty routes may start on the second one.
    while (improved || loop === 1) {
      improved = false;
      const empty = !fromSecondPass ? EMPTY_IF_CHANGED : loop > 0 ? EMPTY_ALWAYS : EMPTY_NEVER;
      for (const u of order) {
        // Focused: a customer whose route neighbours are as at the focus is not promising. An
        // unserved one (optional stops) has no neighbours to change: it is examined whenever a
        // route next to it changed (customer-moves.ts).
        if (changedAt !== null && changedAt[u]! <= since && rs.routeOf[u]! >= 0) continue;
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        if (this.moves.examine(u, empty)) improved = true;
      }
      if (stop()) return false;
      if (this.routeMoves(rng, loop, improved, educating)) improved = true;
      loop++;
    }
    return true;
  }

  /**
   * As run, when the routes were a local optimum except for those rewritten since (an iterated
   * search's ruin and recreate): each pass looks only at the promising customers
   * (promising-customers.ts) and, for those, only at pairs where either route changed since the
   * customer was last examined (HGS's whenLastModified); SWAP* likewise (passLocalised).
   * `nearby` false: of the rewritten routes, only their own customers are promising, not those
   * that list one of them as a neighbour (a repair's runs, ils/identical-vehicles-parts.ts).
   */
  runLocalised(rng: Rng, stop: () => boolean = () => false, nearby = true): boolean {
    const promising = this.promising;
    if (promising === null) throw new Error("runLocalised needs the promising customers (settings.localised)");
    const order = this.promisingOrder;
    const fromSecondPass = this.settings.emptyRoutes === "fromSecondPass";
    this.moves.shuffleTypes(rng);
    let improved = true;
    let loop = 0;
    let checked = 0;
    while (improved || loop === 1) {
      improved = false;
      const empty = fromSecondPass && loop === 0 ? EMPTY_NEVER : EMPTY_IF_CHANGED;
      const count = promising.collect(this.rs.seq, this.rs.length, order, nearby);
      for (let k = count - 1; k > 0; k--) {
        const t = rng.int(k + 1);
        const tmp = order[k]!;
        order[k] = order[t]!;
        order[t] = tmp;
      }
      for (let k = 0; k < count; k++) {
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        if (this.moves.examine(order[k]!, empty)) improved = true;
        this.examined++;
      }
      if (stop()) return false;
      if (this.routeMoves(rng, loop, improved, true)) improved = true;
      loop++;
    }
    return true;
  }

  /** Improves route r by its own moves alone (customer-moves.ts improveWithin) until none improves. */
  improveWithin(r: number): void {
    while (this.moves.improveWithin(r));
  }

  /** The moves after a pass: SWAP*, vehicle changes, the backhaul joins (after a pass that found nothing). */
  private routeMoves(rng: Rng, loop: number, improved: boolean, localised: boolean): boolean {
    let found = false;
    const swapStar = this.swapStar;
    const when = this.settings.swapStarLocalised;
    if (swapStar !== null && (!localised || when === "everyPass" || (when === "idlePass" && !improved))) {
      const allPairs = !localised && this.settings.swapStar === "allPairs";
      if (allPairs ? swapStar.pass(rng, loop) : swapStar.passLocalised(rng)) found = true;
    }
    if (this.fleetUse?.improve()) found = true;
    if (this.settings.backhaulMoves && !improved && !found && repairBackhaulPairing(this.perVehicle!)) found = true;
    return found;
  }

  routes(): number[][] {
    return this.rs.routes();
  }

  /** Penalised cost of the routes plus the skip price of every customer on none (optional customers). */
  totalCost(): number {
    let total = 0;
    for (let r = 0; r < this.m.routes; r++) total += this.rs.cost[r]!;
    if (this.rs.balance) total += this.rs.balance.term();
    return this.m.skipPrice ? total + this.skippedCost() : total;
  }

  /** Sum of the skip prices of the customers on no route (0 when every customer must be served). */
  skippedCost(): number {
    const skip = this.m.skipPrice;
    if (!skip) return 0;
    let total = 0;
    for (const c of this.m.customers) if (this.rs.routeOf[c]! < 0) total += skip[c]!;
    return total;
  }

  /** Delivered load of route r. */
  loadOf(r: number): number {
    return this.rs.load[r]![this.rs.length[r]! + 1]!;
  }

  /** Whether route r carries more than its capacity: its delivered total, or with pickups (backhaul-model.ts) its peak on board. */
  overloaded(r: number): boolean {
    if (this.rs.loads) return this.rs.loadExcess[r]! > 1e-9;
    return this.rs.load[r]![this.rs.length[r]! + 1]! > this.m.capacity[r]! + 1e-9;
  }

  /** Route duration: additive (driving + service), or under windows the segment's (waiting included). */
  durationOf(r: number): number {
    return this.rs.duration[r]!;
  }

  /** Time warp of route r (0 without windows). */
  timeWarpOf(r: number): number {
    return this.rs.timeWarp[r]!;
  }
}
