import type { CompiledProblem, ServiceRules } from "../core/problem.js";

/**
 * Optional stops, skills, shifts and route limits (CompiledProblem.rules) as the route model
 * (routes.ts) uses them, per route slot (= vehicle) and per node. Built only for problems that
 * have rules; the route model's time part takes its per-vehicle start and end windows and
 * duration caps from problem-data.ts either way (identical to the nodes' own without rules).
 */
export interface FleetRules {
  rules: ServiceRules;
  /** Per vehicle: route distance cap (Infinity: none) and most customers (0x7fffffff: none). */
  maxDistance: Float64Array;
  maxStops: Int32Array;
  /**
   * Skills: vehicles with the same allowed row share a profile; allowed[profileVehicle[p] * n + i]
   * tells whether profile p may serve node i. null when every vehicle may serve every node.
   */
  allowed: Uint8Array | null;
  profileOf: Int32Array;
  profileVehicle: Int32Array;
  /**
   * Per node: the search's price of leaving it unserved. An optional node's skip penalty; a
   * required one's REQUIRED_FACTOR x (dearest route of one customer) when unassigned nodes are
   * allowed (the search then serves it whenever it finds a feasible place: no feasible insertion
   * costs that much); Infinity otherwise (it must be served).
   */
  skipPrice: Float64Array;
  /** Some node may stay unserved (optional nodes, or allowUnassigned). */
  anyOptional: boolean;
}

/** How many times a required node's unassigned price exceeds the dearest one-customer route. */
const REQUIRED_FACTOR = 10;

export function buildFleetRules(p: CompiledProblem, maxEdge: number): FleetRules | null {
  const rules = p.rules;
  if (!rules) return null;
  const n = p.nodeCount;
  const m = p.vehicleCount;
  const profileOf = new Int32Array(m);
  const vehicles: number[] = [];
  if (rules.allowed) {
    const keys = new Map<string, number>();
    for (let v = 0; v < m; v++) {
      const key = rules.allowed.subarray(v * n, (v + 1) * n).join("");
      let profile = keys.get(key);
      if (profile === undefined) {
        profile = vehicles.length;
        keys.set(key, profile);
        vehicles.push(v);
      }
      profileOf[v] = profile;
    }
  } else vehicles.push(0);
  let dearest = 0;
  for (let v = 0; v < m; v++) dearest = Math.max(dearest, p.fixedCost[v]! + 2 * p.unitCost[v]! * maxEdge);
  const required = rules.allowUnassigned ? REQUIRED_FACTOR * Math.max(1, dearest) : Number.POSITIVE_INFINITY;
  const skipPrice = new Float64Array(n);
  let anyOptional = rules.allowUnassigned;
  for (let i = 0; i < n; i++) {
    const penalty = rules.skipPenalty[i]!;
    if (penalty !== Number.POSITIVE_INFINITY && !p.isDepot[i]) anyOptional = true;
    skipPrice[i] = penalty === Number.POSITIVE_INFINITY ? required : penalty;
  }
  return {
    rules,
    maxDistance: rules.maxDistance,
    maxStops: rules.maxStops,
    allowed: rules.allowed,
    profileOf,
    profileVehicle: Int32Array.from(vehicles),
    skipPrice,
    anyOptional,
  };
}

/** What makes two vehicles different under the rules (part of the fleet model's type key). */
export function rulesKey(fr: FleetRules | null, v: number): string {
  if (!fr) return "";
  const r = fr.rules;
  return `|${fr.profileOf[v]}|${r.shiftStartMin[v]}|${r.shiftEndMin[v]}|${r.maxDistance[v]}|${r.maxDurationMin[v]}|${r.maxStops[v]}`;
}

/**
 * Granular neighbours without the customers that no vehicle may serve together with each one
 * (skills: no skill profile allows both), which no move could ever put on one route: from a list
 * twice as long (`wide`, nearest first), the first `k` compatible ones. The lists as they are
 * when no node needs a skill or there are too many profiles for a bit mask.
 */
export function compatibleNeighbours(fr: FleetRules | null, nodeCount: number, wide: Int32Array[], k: number): Int32Array[] {
  const allowed = fr?.allowed;
  if (!fr || !allowed || fr.profileVehicle.length > 30) return wide.map((list) => list.subarray(0, k));
  const mask = new Int32Array(nodeCount);
  for (let p = 0; p < fr.profileVehicle.length; p++) {
    const row = fr.profileVehicle[p]! * nodeCount;
    for (let i = 0; i < nodeCount; i++) if (allowed[row + i] === 1) mask[i]! |= 1 << p;
  }
  return wide.map((list, u) => {
    const out: number[] = [];
    for (let t = 0; t < list.length && out.length < k; t++) if ((mask[u]! & mask[list[t]!]!) !== 0) out.push(list[t]!);
    return Int32Array.from(out);
  });
}
