import type { Rng } from "../../core/rng.js";
import type { ProblemData } from "../problem-data.js";
import { SwapStar } from "../moves/swap-star.js";
import { Relocate } from "../operators/relocate.js";
import { InsertUnserved } from "../operators/insert-unserved.js";
import { RelocateWithin } from "../operators/relocate-within.js";
import { RemoveOptional } from "../operators/remove-optional.js";
import { Swap } from "../operators/swap.js";
import { SwapWithin } from "../operators/swap-within.js";
import { TwoOpt } from "../operators/two-opt.js";
import { TwoOptStar } from "../operators/two-opt-star.js";
import { TextbookMovePricing } from "./move-pricing.js";

/** Customers examined between two looks at the stop condition. */
const STOP_CHECK = 16;
/** When examine() also tries moving a customer into an empty route. */
const EMPTY_NEVER = 0;
const EMPTY_ALWAYS = 1;
const EMPTY_IF_CHANGED = 2;

/**
 * Granular local search of the hybrid genetic search (Vidal 2022): relocate one or two
 * customers (also reversed), swap 1-1, 2-1 and 2-2, 2-opt within a route and both 2-opt*
 * variants between routes, over each customer's nearest neighbours, first improvement (one class
 * per move in operators/, shared with the general search), then SWAP* between neighbouring
 * routes; on a penalised cost so that overloaded or overlong routes are allowed but priced. Every
 * move is priced in O(1) from the prefix sums of the route model (SWAP* from cached insertion
 * costs); a property test checks each applied move against the evaluator.
 */
export class LocalSearch extends TextbookMovePricing {
  private readonly testedAt: Float64Array;
  private readonly swapStar: SwapStar;
  private readonly promisingOrder: Int32Array;
  /** Optional customers: 1 when u was unserved at its last examination and no insertion of it was improving then. */
  private readonly unservedIdle: Uint8Array;
  private readonly relocate = new Relocate(this);
  private readonly relocateWithin = new RelocateWithin(this);
  private readonly swap = new Swap(this);
  private readonly swapWithin = new SwapWithin(this);
  private readonly twoOpt = new TwoOpt(this);
  private readonly twoOptStar = new TwoOptStar(this);
  private readonly insertUnserved = new InsertUnserved(this, true);
  private readonly removeOptional = new RemoveOptional(this);

  constructor(m: ProblemData) {
    super(m);
    this.unservedIdle = new Uint8Array(m.nodeCount);
    this.testedAt = new Float64Array(m.nodeCount);
    this.swapStar = new SwapStar(this);
    this.promisingOrder = new Int32Array(m.nodeCount);
  }

  /** Loads routes (customers only, one list per vehicle, missing lists empty); every customer is examined again. */
  override loadRoutes(routes: readonly (readonly number[])[]): void {
    super.loadRoutes(routes);
    this.testedAt.fill(-1);
    this.unservedIdle.fill(0);
  }

  /**
   * Runs to a local optimum, or until `stop()` says so (checked every STOP_CHECK customers, so a
   * long descent on a large instance honours the deadline). `order` is shuffled here so that
   * successive calls explore differently; neighbour lists are visited nearest first. Returns
   * false when stopped early.
   */
  run(rng: Rng, stop: () => boolean = () => false): boolean {
    const m = this.m;
    const order = Array.from(m.customers);
    rng.shuffle(order);
    this.testedAt.fill(-1);
    this.swapStar.forget();
    let improved = true;
    let loop = 0;
    let checked = 0;
    // At least two passes: moves into empty routes are tried from the second one on.
    while (improved || loop === 1) {
      improved = false;
      for (const u of order) {
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        if (this.examine(u, loop > 0, loop > 0 ? EMPTY_ALWAYS : EMPTY_NEVER)) improved = true;
      }
      if (stop()) return false;
      if (this.swapStar.pass(rng, loop)) improved = true;
      loop++;
    }
    return true;
  }

  /**
   * As run, when the routes were a local optimum except for those rewritten since (an iterated
   * search's ruin and recreate): each pass looks only at the promising customers (promising.ts)
   * and, for those, only at pairs where either route changed since the customer was last
   * examined (HGS's whenLastModified); SWAP* likewise (passLocalised).
   */
  runLocalised(rng: Rng, stop: () => boolean = () => false): boolean {
    const order = this.promisingOrder;
    let improved = true;
    let loop = 0;
    let checked = 0;
    while (improved || loop === 1) {
      improved = false;
      const count = this.promising.collect(this.rs.seq, this.rs.length, order);
      for (let k = count - 1; k > 0; k--) {
        const t = rng.int(k + 1);
        const tmp = order[k]!;
        order[k] = order[t]!;
        order[t] = tmp;
      }
      for (let k = 0; k < count; k++) {
        if (++checked % STOP_CHECK === 0 && stop()) return false;
        if (this.examine(order[k]!, true, loop > 0 ? EMPTY_IF_CHANGED : EMPTY_NEVER)) improved = true;
      }
      if (stop()) return false;
      if (this.swapStar.passLocalised(rng)) improved = true;
      loop++;
    }
    return true;
  }

  /**
   * Tries customer u's moves towards each granular neighbour's route (and an empty route, as
   * `empty` says); with `skipUnchanged`, only where either route changed since u was last
   * examined. Whether a move was applied.
   */
  private examine(u: number, skipUnchanged: boolean, empty: number): boolean {
    const lastTested = this.testedAt[u]!;
    this.testedAt[u] = this.clock;
    // Optional customers: an unserved one can only enter a route; a served one may leave first.
    if (this.m.skipPrice) {
      if (this.rs.routeOf[u]! < 0) {
        const idle = skipUnchanged && this.unservedIdle[u] === 1 && lastTested > this.repricedAt;
        const moved = this.insertUnserved.evaluate(u, idle ? lastTested : -1);
        if (moved) this.insertUnserved.apply();
        this.unservedIdle[u] = moved ? 0 : 1;
        return moved;
      }
      this.unservedIdle[u] = 0;
      if (this.removeOptional.evaluate(u)) {
        this.removeOptional.apply();
        return true;
      }
    }
    const near = this.m.neighbours[u]!;
    let improved = false;
    for (let k = 0; k < near.length; k++) {
      const v = near[k]!;
      const ru = this.rs.routeOf[u]!;
      const rv = this.rs.routeOf[v]!;
      // Only with optional customers: v is unserved (examined on its own turn).
      if (rv < 0) continue;
      if (skipUnchanged && Math.max(this.rs.modifiedAt[ru]!, this.rs.modifiedAt[rv]!) <= lastTested) continue;
      if (this.movesAfter(u, rv, this.rs.pos[v]!)) {
        improved = true;
        continue;
      }
      // v first in its route: also try placing u at the start of that route.
      if (this.rs.pos[v] === 1 && this.rs.routeOf[u] !== rv && this.movesAfter(u, rv, 0)) improved = true;
    }
    // Localised: only a customer whose route changed can newly gain from a route of its own.
    if (empty === EMPTY_ALWAYS || (empty === EMPTY_IF_CHANGED && this.rs.modifiedAt[this.rs.routeOf[u]!]! > lastTested)) {
      const r = this.emptyOfType(0, -1);
      if (r >= 0 && this.movesAfter(u, r, 0)) improved = true;
    }
    return improved;
  }

  /** Every move between customer u and position j of route rv (j = 0: rv's start depot), in the search's order. */
  private movesAfter(u: number, rv: number, j: number): boolean {
    const ru = this.rs.routeOf[u]!;
    const i = this.rs.pos[u]!;
    if (ru !== rv) {
      if (this.relocate.evaluate(ru, i, rv, j)) {
        this.relocate.apply();
        return true;
      }
      if (j > 0 && this.swap.evaluate(ru, i, rv, j)) {
        this.swap.apply();
        return true;
      }
      if (!this.twoOptStar.evaluate(ru, i, rv, j)) return false;
      this.twoOptStar.apply();
      return true;
    }
    if (j === i || j === i - 1) return false;
    if (this.relocateWithin.evaluate(ru, i, j)) {
      this.relocateWithin.apply();
      return true;
    }
    if (j > 0 && this.swapWithin.evaluate(ru, i, j)) {
      this.swapWithin.apply();
      return true;
    }
    if (i >= j || !this.twoOpt.evaluate(ru, i, j)) return false;
    this.twoOpt.apply();
    return true;
  }
}
