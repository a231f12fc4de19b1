import type { PerVehiclePricing } from "../pricing/per-vehicle.js";
import { Pieces } from "../pieces.js";
import { TypePrices } from "./type-prices.js";

const EPS = 1e-7;
const whole = new Pieces();
const other = new Pieces();
/**
 * Penalty sets remembered at once: a repair raises the prices x10 and x100 for a few runs and
 * then lowers them again, so one memory would be forgotten on each repair.
 */
const SLOTS = 3;
/** Above this many routes x types the moves to free vehicles are not remembered (the swaps still are). */
const MOVES_MEMORY_LIMIT = 1 << 18;

/**
 * What one set of penalties priced without gain: per route and type, the route's modification time
 * and the free vehicle when its move there did not pay; the clock when the last swap check began
 * (pairs of routes unchanged since were priced without gain). A route's own price is a function of
 * its modification time at given penalties, as long as the routes are repriced when they change.
 */
class PricedWithoutGain {
  readonly prices = new Float64Array(5).fill(Number.NaN);
  readonly triedAt: Float64Array;
  readonly triedOn: Int32Array;
  swapsFrom = -1;
  /** The call that last used it (the slot least recently used is the one replaced). */
  usedAt = 0;

  constructor(
    moves: number,
    /** The routes' base prices per vehicle type at these penalties (null where types do not price alike). */
    readonly typePrices: TypePrices | null,
  ) {
    this.triedAt = new Float64Array(moves).fill(-1);
    this.triedOn = new Int32Array(moves);
  }

  /** Whether it holds for prices `p` (load, duration, time warp, distance, stops). */
  holds(p: Float64Array): boolean {
    const own = this.prices;
    return own[0] === p[0] && own[1] === p[1] && own[2] === p[2] && own[3] === p[3] && own[4] === p[4];
  }

  /** Forgets everything and holds for prices `p` from now on. */
  reset(p: Float64Array): void {
    this.prices.set(p);
    this.triedAt.fill(-1);
    this.swapsFrom = -1;
    this.typePrices?.forget();
  }
}

/**
 * Moves whole routes between vehicles: a route goes to a free vehicle of another type when that
 * is cheaper (a smaller, cheaper or better placed vehicle), and two routes on vehicles of
 * different types swap vehicles when that pays; under a reassignment cost a route also moves to,
 * or swaps with, the vehicle its stops came from. Type counts hold by construction: a route only
 * ever moves to a vehicle that is free.
 *
 * The search calls it after every pass, when most routes are as they were at the last call: a
 * move or swap found not to pay is not priced again until one of its routes is rewritten or the
 * penalties change (the last few sets of penalties are remembered), since its price depends on
 * nothing else. The routes found are the same as without that memory. Without it (a reassignment
 * cost, whose price changes during the search, or balance, whose term depends on every route)
 * every call prices everything.
 */
export class FleetUse {
  private readonly slots: PricedWithoutGain[] = [];
  private readonly remembers: boolean;
  private readonly rememberMoves: boolean;
  private readonly prices = new Float64Array(5);
  private readonly used: Int32Array;
  private readonly changed: Uint8Array;
  private readonly later: Int32Array;
  private calls = 0;

  /** `remember` false: every call prices every move and swap (the reference the memory is tested against). */
  constructor(
    private readonly ls: PerVehiclePricing,
    remember = true,
  ) {
    const rs = ls.rs;
    const routes = rs.m.routes;
    this.remembers = remember && rs.reassignment === null && rs.balance === null && rs.m.typeSlots.length > 1;
    this.rememberMoves = routes * rs.m.typeSlots.length <= MOVES_MEMORY_LIMIT;
    this.used = new Int32Array(routes);
    this.changed = new Uint8Array(routes);
    this.later = new Int32Array(routes);
  }

  /** One round of vehicle changes over every route; whether anything changed. */
  improve(): boolean {
    const ls = this.ls;
    const rs = ls.rs;
    const m = rs.m;
    const homes = rs.reassignment;
    const types = m.typeSlots.length;
    if (types < 2 && homes === null) return false;
    const memo = this.remembers ? this.memoryFor() : null;
    const moves = memo !== null && this.rememberMoves ? memo : null;
    const typePrices = memo?.typePrices ?? null;
    let improved = false;
    for (let r = 0; r < m.routes; r++) {
      if (rs.length[r] === 0) continue;
      for (let type = 0; type < types; type++) {
        if (type === m.typeOf[r] || rs.length[r] === 0) continue;
        const free = ls.emptyOfType(type, r);
        if (free < 0) continue;
        const k = r * types + type;
        if (moves && moves.triedAt[k] === rs.modifiedAt[r] && moves.triedOn[k] === free) continue;
        if (moveRoute(ls, r, free, typePrices)) improved = true;
        else if (moves) {
          moves.triedAt[k] = rs.modifiedAt[r]!;
          moves.triedOn[k] = free;
        }
      }
      // Under a reassignment cost: to the free vehicle its stops came from, whatever its type.
      if (homes === null) continue;
      for (const h of homes.awayHomes(r)) if (rs.length[r]! > 0 && rs.length[h] === 0 && moveRoute(ls, r, h, null)) improved = true;
    }
    // Only used vehicles can swap: a large free fleet is mostly empty, so list them first.
    const used = this.used;
    const changed = this.changed;
    let count = 0;
    for (let r = 0; r < m.routes; r++) {
      if (rs.length[r] === 0) continue;
      used[count] = r;
      changed[count++] = memo === null || rs.modifiedAt[r]! > memo.swapsFrom ? 1 : 0;
    }
    if (memo) memo.swapsFrom = rs.clock;
    // The pairs (a, b), a < b, where either route changed, in that order. A row of an unchanged
    // route visits only the changed routes after it (`later`, ascending) until a swap changes it,
    // then every route after its partner: the pairs a scan of all of them prices, in O(changed x used).
    const later = this.later;
    let laterCount = 0;
    for (let b = 0; b < count; b++) if (changed[b] === 1) later[laterCount++] = b;
    let next = 0;
    for (let a = 0; a < count; a++) {
      while (next < laterCount && later[next]! <= a) next++;
      const r1 = used[a]!;
      if (rs.length[r1] === 0) continue;
      let b = a + 1;
      if (changed[a] === 0) {
        b = count;
        for (let i = next; i < laterCount; i++) {
          if (!this.swapPair(a, later[i]!, typePrices)) continue;
          improved = true;
          b = later[i]! + 1;
          break;
        }
      }
      for (; b < count; b++) {
        const wasChanged = changed[b] === 1;
        if (!this.swapPair(a, b, typePrices)) continue;
        improved = true;
        if (!wasChanged) laterCount = insertAscending(later, laterCount, b);
      }
      // Under a reassignment cost two vehicles of one type swap when one holds the other's stops.
      if (homes === null) continue;
      for (const h of homes.awayHomes(r1)) {
        if (h !== r1 && rs.length[r1]! > 0 && rs.length[h]! > 0 && m.typeOf[h] === m.typeOf[r1] && swapRoutes(ls, r1, h, null)) {
          improved = true;
          break;
        }
      }
    }
    return improved;
  }

  /** Swaps used routes a and b (indices of `used`) when they are of different types, either changed, and it pays; whether it did. */
  private swapPair(a: number, b: number, typePrices: TypePrices | null): boolean {
    const rs = this.ls.rs;
    const r1 = this.used[a]!;
    const r2 = this.used[b]!;
    const changed = this.changed;
    if (rs.length[r2] === 0 || rs.m.typeOf[r1] === rs.m.typeOf[r2] || (changed[a] === 0 && changed[b] === 0)) return false;
    if (!swapRoutes(this.ls, r1, r2, typePrices)) return false;
    changed[a] = changed[b] = 1;
    return true;
  }

  /** The memory of the current penalties: a new one, in place of the least recently used, for prices not seen lately. */
  private memoryFor(): PricedWithoutGain {
    const pen = this.ls.rs.costs.penalties;
    const p = this.prices;
    p[0] = pen.load;
    p[1] = pen.duration;
    p[2] = pen.timeWarp;
    p[3] = pen.distance ?? 1;
    p[4] = pen.stops ?? 1;
    this.calls++;
    let slot = this.slots.find((s) => s.holds(p));
    if (slot === undefined) {
      if (this.slots.length < SLOTS) {
        const rs = this.ls.rs;
        const moves = this.rememberMoves ? rs.m.routes * rs.m.typeSlots.length : 0;
        const typePrices = this.rememberMoves && TypePrices.appliesTo(rs) ? new TypePrices(rs.m.routes, rs.m.typeSlots.length) : null;
        slot = new PricedWithoutGain(moves, typePrices);
        this.slots.push(slot);
      } else slot = this.slots.reduce((a, b) => (b.usedAt < a.usedAt ? b : a));
      slot.reset(p);
    }
    slot.usedAt = this.calls;
    return slot;
  }
}

/** Inserts `value` into the ascending list[0..count); the new count. */
function insertAscending(list: Int32Array, count: number, value: number): number {
  let i = count;
  for (; i > 0 && list[i - 1]! > value; i--) list[i] = list[i - 1]!;
  list[i] = value;
  return count + 1;
}

/** One round of vehicle changes pricing every move and swap (no memory across calls); whether anything changed. */
export function improveFleetUse(ls: PerVehiclePricing): boolean {
  return new FleetUse(ls, false).improve();
}

/**
 * Moves route r whole to free vehicle `free` when that is cheaper; whether it did. With `typePrices`
 * the base price comes from there (the same number), and a move it already rules out is not timed:
 * the time part is never negative.
 */
function moveRoute(ls: PerVehiclePricing, r: number, free: number, typePrices: TypePrices | null): boolean {
  const rs = ls.rs;
  whole.reset().add(r, 1, rs.length[r]!);
  let after: number;
  if (typePrices === null) after = rs.candidates.price(free, whole);
  else {
    const base = typePrices.of(rs, r, free);
    if (base >= rs.cost[r]! - EPS) return false;
    after = base + rs.candidates.timePrice(free, whole);
  }
  // Another vehicle may drive the route longer or shorter: the balance term changes with it.
  if (rs.balance) after += rs.balance.delta(free, rs.balance.workloadOf(free, whole), r, 0);
  if (after >= rs.cost[r]! - EPS) return false;
  const out = new Int32Array(whole.size);
  const count = rs.candidates.write(whole, out);
  rs.setRoute(free, out, count);
  rs.setRoute(r, out, 0);
  ls.onCommit?.(after, free, r);
  return true;
}

/** Swaps the vehicles of routes r1 and r2 when that is cheaper; whether it did. With `typePrices` the base prices come from there. */
function swapRoutes(ls: PerVehiclePricing, r1: number, r2: number, typePrices: TypePrices | null): boolean {
  const rs = ls.rs;
  const before = rs.cost[r1]! + rs.cost[r2]!;
  whole.reset().add(r1, 1, rs.length[r1]!);
  other.reset().add(r2, 1, rs.length[r2]!);
  const base =
    typePrices === null
      ? rs.candidates.basePrice(r2, whole) + rs.candidates.basePrice(r1, other)
      : typePrices.of(rs, r1, r2) + typePrices.of(rs, r2, r1);
  if (base >= before - EPS) return false;
  let after = base + rs.candidates.timePrice(r2, whole) + rs.candidates.timePrice(r1, other);
  if (rs.balance) after += rs.balance.delta(r2, rs.balance.workloadOf(r2, whole), r1, rs.balance.workloadOf(r1, other));
  if (after >= before - EPS) return false;
  const out1 = new Int32Array(whole.size);
  const out2 = new Int32Array(other.size);
  rs.candidates.write(whole, out1);
  rs.candidates.write(other, out2);
  rs.setRoute(r1, out2, out2.length);
  rs.setRoute(r2, out1, out1.length);
  ls.onCommit?.(after, r1, r2);
  return true;
}
