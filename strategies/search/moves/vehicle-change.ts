import type { PerVehiclePricing } from "../pricing/per-vehicle.js";
import { Pieces } from "../pieces.js";

const EPS = 1e-7;
const whole = new Pieces();
const other = new Pieces();

/**
 * Moves whole routes between vehicles: a route goes to a free vehicle of another type when that
 * is cheaper (a smaller, cheaper or better placed vehicle), and two routes on vehicles of
 * different types swap vehicles when that pays; under a reassignment cost a route also moves to,
 * or swaps with, the vehicle its stops came from. Type counts hold by construction: a route only
 * ever moves to a vehicle that is free. Returns whether anything changed.
 */
export function improveFleetUse(ls: PerVehiclePricing): boolean {
  const rs = ls.rs;
  const m = rs.m;
  const homes = rs.reassignment;
  if (m.typeSlots.length < 2 && homes === null) return false;
  let improved = false;
  for (let r = 0; r < m.routes; r++) {
    if (rs.length[r] === 0) continue;
    for (let type = 0; type < m.typeSlots.length; type++) {
      if (type === m.typeOf[r] || rs.length[r] === 0) continue;
      const free = ls.emptyOfType(type, r);
      if (free >= 0 && moveRoute(ls, r, free)) improved = true;
    }
    // Under a reassignment cost: to the free vehicle its stops came from, whatever its type.
    if (homes === null) continue;
    for (const h of homes.awayHomes(r)) if (rs.length[r]! > 0 && rs.length[h] === 0 && moveRoute(ls, r, h)) improved = true;
  }
  // Only used vehicles can swap: a large free fleet is mostly empty, so list them first.
  const used: number[] = [];
  for (let r = 0; r < m.routes; r++) if (rs.length[r]! > 0) used.push(r);
  for (let a = 0; a < used.length; a++) {
    const r1 = used[a]!;
    if (rs.length[r1] === 0) continue;
    for (let b = a + 1; b < used.length; b++) {
      const r2 = used[b]!;
      if (rs.length[r2] === 0 || m.typeOf[r1] === m.typeOf[r2]) continue;
      if (swapRoutes(ls, r1, r2)) improved = true;
    }
    // Under a reassignment cost two vehicles of one type swap when one holds the other's stops.
    if (homes === null) continue;
    for (const h of homes.awayHomes(r1)) {
      if (h !== r1 && rs.length[r1]! > 0 && rs.length[h]! > 0 && m.typeOf[h] === m.typeOf[r1] && swapRoutes(ls, r1, h)) {
        improved = true;
        break;
      }
    }
  }
  return improved;
}

/** Moves route r whole to free vehicle `free` when that is cheaper; whether it did. */
function moveRoute(ls: PerVehiclePricing, r: number, free: number): boolean {
  const rs = ls.rs;
  whole.reset().add(r, 1, rs.length[r]!);
  let after = rs.candidates.price(free, whole);
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

/** Swaps the vehicles of routes r1 and r2 when that is cheaper; whether it did. */
function swapRoutes(ls: PerVehiclePricing, r1: number, r2: number): boolean {
  const rs = ls.rs;
  whole.reset().add(r1, 1, rs.length[r1]!);
  other.reset().add(r2, 1, rs.length[r2]!);
  const before = rs.cost[r1]! + rs.cost[r2]!;
  const base = rs.candidates.basePrice(r2, whole) + rs.candidates.basePrice(r1, other);
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
