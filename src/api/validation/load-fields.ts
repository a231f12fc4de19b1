import type { ConstraintFields } from "../../problem/constraint-fields.js";
import type { SolveRequestInput } from "../../problem/request-types.js";

type Add = (loc: string[], msg: string, type?: string) => void;

/** The request fields the load rules read (schema-checked first, like the seed's). */
export const READ_BY_LOAD_RULES = [
  "node_pickups",
  "pickups_after_deliveries",
  "shipments",
  "node_extra_demands",
  "vehicles_extra_capacity",
  "node_skip_penalties",
] as const;

function list(values: readonly number[]): string {
  return `[${values.join(", ")}]`;
}

/**
 * Cross-field rules of the pickup-and-delivery fields (constraints.md, second table): lengths,
 * depots, shipments (customers, distinct, each node in one at most, no demand or pickup of their
 * own, equal skip penalties), backhauls without mixed nodes, one dimension count for nodes and
 * vehicles. Runs only when the schema found these fields well-typed.
 */
export function loadFieldIssues(req: SolveRequestInput & ConstraintFields, add: Add): void {
  const n = req.node_num;
  const m = req.vehicle_num;
  const depots = new Set<number>([...req.start_nodes, ...req.end_nodes]);
  const sized = (field: "node_pickups" | "node_extra_demands" | "vehicles_extra_capacity", expected: number, against: string): boolean => {
    const value = req[field];
    if (!Array.isArray(value)) return false;
    if (value.length === expected) return true;
    add([field], `${field} must have ${against} (${expected}) entries, got ${value.length}`, "length_mismatch");
    return false;
  };

  const pickups = sized("node_pickups", n, "node_num") ? req.node_pickups! : null;
  pickups?.forEach((amount, i) => {
    if (amount !== 0 && depots.has(i))
      add(["node_pickups", String(i)], `depot node ${i} (a start or end node) must have pickup 0 (got ${amount})`);
  });

  const extra = extraDimensionIssues(req, depots, add);

  if (req.pickups_after_deliveries === true && pickups) {
    pickups.forEach((amount, i) => {
      const demand = req.node_demands[i] ?? 0;
      if (amount > 0 && demand > 0) {
        add(
          ["node_pickups", String(i)],
          `node ${i} has both a demand (${demand}) and a pickup (${amount}), which ` +
            `pickups_after_deliveries does not allow (every pickup comes after every ` +
            `delivery): make them two nodes`,
        );
      }
    });
  }

  const inShipment = new Map<number, number>();
  (req.shipments ?? []).forEach((s, k) => {
    const at = (field: "pickup" | "delivery") => ["shipments", String(k), field];
    let usable = true;
    for (const field of ["pickup", "delivery"] as const) {
      const node = s[field];
      if (node >= n) {
        add(at(field), `node index ${node} is out of range (node_num is ${n})`, "index_out_of_range");
        usable = false;
      } else if (depots.has(node)) {
        add(at(field), `shipment ${k}: node ${node} is a depot (a start or end node); a shipment's pickup and delivery are customers`);
        usable = false;
      }
    }
    if (!usable) return;
    if (s.pickup === s.delivery) {
      add(["shipments", String(k)], `shipment ${k}: pickup and delivery are the same node ${s.pickup}`);
      return;
    }
    for (const field of ["pickup", "delivery"] as const) {
      const node = s[field];
      const earlier = inShipment.get(node);
      if (earlier !== undefined) {
        add(at(field), `shipment ${k}: node ${node} is already in shipment ${earlier}; a node is in at most one shipment`);
        continue;
      }
      inShipment.set(node, k);
      const demand = req.node_demands[node] ?? 0;
      if (demand !== 0)
        add(
          ["node_demands", String(node)],
          `node ${node} is in shipment ${k} and must have demand 0 (got ${demand}); the shipment's amount is its load`,
        );
      const pickup = pickups?.[node] ?? 0;
      if (pickup !== 0)
        add(
          ["node_pickups", String(node)],
          `node ${node} is in shipment ${k} and must have pickup 0 (got ${pickup}); the shipment's amount is its load`,
        );
      const row = extra?.[node];
      if (row?.some((x) => x !== 0))
        add(
          ["node_extra_demands", String(node)],
          `node ${node} is in shipment ${k} and must have extra demands 0 (got ` +
            `${list(row)}); a shipment's amount is in the first dimension only`,
        );
    }
    const penalties = req.node_skip_penalties;
    if (Array.isArray(penalties) && penalties.length === n) {
      const [pp, dp] = [penalties[s.pickup] ?? null, penalties[s.delivery] ?? null];
      if (pp !== dp) {
        add(
          ["node_skip_penalties", String(s.delivery)],
          `shipment ${k}: the skip penalties of its pickup (node ${s.pickup}: ${pp}) and ` +
            `its delivery (node ${s.delivery}: ${dp}) must be equal, so that the pair is ` +
            `served or skipped together`,
        );
      }
    }
  });
}

/** node_extra_demands and vehicles_extra_capacity: given together, one D, depots 0. The usable rows, or null. */
function extraDimensionIssues(req: SolveRequestInput & ConstraintFields, depots: Set<number>, add: Add): number[][] | null {
  const nodes = req.node_extra_demands;
  const vehicles = req.vehicles_extra_capacity;
  if (nodes && !vehicles)
    add(
      ["vehicles_extra_capacity"],
      "vehicles_extra_capacity is required when node_extra_demands is given (each vehicle's capacity in every extra dimension)",
      "missing",
    );
  if (vehicles && !nodes)
    add(
      ["node_extra_demands"],
      "node_extra_demands is required when vehicles_extra_capacity is given (each node's amount in every extra dimension)",
      "missing",
    );
  const nodesOk = Array.isArray(nodes) && nodes.length === req.node_num;
  if (Array.isArray(nodes) && !nodesOk)
    add(["node_extra_demands"], `node_extra_demands must have node_num (${req.node_num}) entries, got ${nodes.length}`, "length_mismatch");
  if (Array.isArray(vehicles) && vehicles.length !== req.vehicle_num) {
    add(
      ["vehicles_extra_capacity"],
      `vehicles_extra_capacity must have vehicle_num (${req.vehicle_num}) entries, got ${vehicles.length}`,
      "length_mismatch",
    );
  }
  if (!nodesOk) return null;
  const dims = nodes[0]!.length;
  let sameDims = true;
  nodes.forEach((row, i) => {
    if (row.length !== dims) {
      add(
        ["node_extra_demands", String(i)],
        `node ${i} has ${row.length} extra dimension(s) but node 0 has ${dims}; every node and vehicle must have the same number`,
        "dimension_mismatch",
      );
      sameDims = false;
    } else if (depots.has(i) && row.some((x) => x !== 0)) {
      add(["node_extra_demands", String(i)], `depot node ${i} (a start or end node) must have extra demands 0 (got ${list(row)})`);
    }
  });
  vehicles?.forEach((row, v) => {
    if (row.length !== dims)
      add(
        ["vehicles_extra_capacity", String(v)],
        `vehicle ${v} has ${row.length} extra dimension(s) but node_extra_demands has ` +
          `${dims}; every node and vehicle must have the same number`,
        "dimension_mismatch",
      );
  });
  return sameDims ? nodes : null;
}
