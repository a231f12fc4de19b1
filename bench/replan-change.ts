/**
 * The mid-day change of the re-planning benchmark: from a solved request and its answer, remove a
 * share of the customers, add as many new ones (each at an existing customer's address, a few
 * units away, with that customer's window widened a little, and a removed one's demand), and lock the first third of every
 * route of the answer. Returns the changed request twice: warm (`initial_routes` = the previous
 * answer without the removed customers) and cold (`initial_routes` = the locked stops only, so
 * both solve the same problem), and the vehicle of every unlocked stop that stays, to count moves.
 */
import type { SolveRequestInput } from "../src/problem/request-types.js";

export interface ReplanChange {
  warm: SolveRequestInput & Record<string, unknown>;
  cold: SolveRequestInput & Record<string, unknown>;
  /** New node index -> vehicle in the previous answer, for the unlocked stops that stay. */
  unlockedVehicle: Map<number, number>;
  removed: number;
  added: number;
  locked: number;
}

type AnyRequest = SolveRequestInput & Record<string, unknown>;

/** Per-node fields of the v1 contract and of constraints.md that this change carries along. */
const PER_NODE = ["node_demands", "node_time_windows", "node_service_time", "node_positions", "node_skip_penalties"] as const;

function rngFrom(seed: number): { int: (lo: number, hi: number) => number } {
  let s = seed >>> 0 || 1;
  const rand = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return { int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)) };
}

/** `routes`: the previous answer's customers per vehicle, in order. */
export function replanChange(request: AnyRequest, routes: number[][], share = 0.05, seed = 1): ReplanChange {
  const { int } = rngFrom(seed * 7919 + 17);
  const n = request.node_num;
  const depots = new Set([...request.start_nodes, ...request.end_nodes]);
  const customers = Array.from({ length: n }, (_, i) => i).filter((i) => !depots.has(i));
  const changes = Math.max(2, Math.round(customers.length * share));
  const locked = routes.map((r) => Math.floor(r.length / 3));
  const lockedSet = new Set(routes.flatMap((r, v) => r.slice(0, locked[v])));
  // Removed: unlocked customers only (a served stop cannot be cancelled).
  const removable = customers.filter((c) => !lockedSet.has(c));
  const removed = new Set<number>();
  while (removed.size < Math.min(Math.floor(changes / 2), removable.length)) removed.add(removable[int(0, removable.length - 1)]!);
  // As many added as removed, each with a removed one's demand: the total demand stays, so a fleet
  // sized for the old day still carries the new one.
  const added = removed.size;
  const removedList = [...removed];

  const keep = Array.from({ length: n }, (_, i) => i).filter((i) => !removed.has(i));
  const newIndex = new Int32Array(n).fill(-1);
  keep.forEach((old, k) => (newIndex[old] = k));
  const templates = Array.from({ length: added }, () => customers[int(0, customers.length - 1)]!);
  const offsets = templates.map(() => int(1, 3));
  const out: AnyRequest = { ...request, node_num: keep.length + added };
  out.start_nodes = request.start_nodes.map((s) => newIndex[s]!);
  out.end_nodes = request.end_nodes.map((e) => newIndex[e]!);
  for (const key of PER_NODE) {
    const values = request[key] as unknown[] | undefined;
    if (!Array.isArray(values) || values.length !== n) continue;
    const copied = keep.map((i) => values[i]);
    templates.forEach((t, k) => copied.push(key === "node_demands" ? values[removedList[k]!] : newNodeValue(key, values[t], offsets[k]!)));
    (out as Record<string, unknown>)[key] = copied;
  }
  const matrix = request.distance_matrix;
  if (Array.isArray(matrix) && matrix.length === n) {
    const rows = keep.map((i) => [...keep.map((j) => matrix[i]![j]!), ...templates.map((t, k) => matrix[i]![t]! + offsets[k]!)]);
    templates.forEach((t, k) =>
      rows.push([
        ...keep.map((j) => matrix[t]![j]! + offsets[k]!),
        ...templates.map((u, l) => (k === l ? 0 : matrix[t]![u]! + offsets[k]! + offsets[l]!)),
      ]),
    );
    out.distance_matrix = rows;
  }

  const previous = routes.map((r) => r.filter((c) => !removed.has(c)).map((c) => newIndex[c]!));
  const unlockedVehicle = new Map<number, number>();
  previous.forEach((r, v) => r.slice(locked[v]).forEach((c) => unlockedVehicle.set(c, v)));
  const warm: AnyRequest = { ...out, initial_routes: previous, vehicle_locked_stops: locked };
  const cold: AnyRequest = { ...out, initial_routes: previous.map((r, v) => r.slice(0, locked[v])), vehicle_locked_stops: locked };
  return { warm, cold, unlockedVehicle, removed: removed.size, added, locked: lockedSet.size };
}

/** A new customer's value of one per-node field, from the customer whose address it shares. */
function newNodeValue(key: (typeof PER_NODE)[number], template: unknown, offset: number): unknown {
  if (key === "node_positions") {
    const [x, y] = template as [number, number];
    return [x + offset, y];
  }
  if (key === "node_time_windows") {
    const [start, end] = template as [number, number];
    return [start, end + 10 + offset];
  }
  return template;
}
