import type { CompiledProblem, LoadRules, Solution } from "../../strategies/core/problem.js";
import { fullRoute, loadProfile, shipmentPlaces } from "./load-profile.js";
import { amountNumber, listedItems } from "./message-numbers.js";

const EPS = 1e-9;

/**
 * The load rules a solution breaks, with the amounts: capacity on board, backhaul
 * order, shipments split or reversed, extra dimensions. Empty when it breaks none of them (or the
 * problem has no load rules). Part of a failed task's message.
 */
export function loadViolationReasons(p: CompiledProblem, solution: Solution): string[] {
  const rules = p.loads;
  if (!rules) return [];
  const why: string[] = [];
  const overloaded: string[] = [];
  let excess = 0;
  const backhaul: string[] = [];
  const extraOver = Array.from({ length: rules.extraDims }, () => ({ routes: [] as string[], excess: 0 }));
  solution.routes.forEach((customers, v) => {
    if (customers.length === 0) return;
    const nodes = fullRoute(p, v, customers);
    const profile = loadProfile(p, rules, nodes);
    let peak = 0;
    let peakAt = 0;
    profile.onBoard.forEach((load, i) => {
      if (load > peak) [peak, peakAt] = [load, i];
    });
    if (peak > p.capacity[v]! + EPS) {
      overloaded.push(
        `vehicle ${v} has ${amountNumber(peak)} on board ` +
          `${peakAt === 0 ? "leaving its start node" : `after node ${nodes[peakAt]}`} ` +
          `against its capacity ${amountNumber(p.capacity[v]!)}`,
      );
      excess += peak - p.capacity[v]!;
    }
    if (rules.pickupsAfterDeliveries) {
      const wrong = firstPickupBeforeDelivery(p, rules, customers);
      if (wrong) backhaul.push(`vehicle ${v} picks up at node ${wrong[0]} before delivering at node ${wrong[1]}`);
    }
    for (let k = 0; k < rules.extraDims; k++) {
      const total = profile.extraOnBoard[0]![k]!;
      const cap = rules.extraCapacity[v * rules.extraDims + k]!;
      if (total > cap + EPS) {
        extraOver[k]!.routes.push(`vehicle ${v} carries ${amountNumber(total)} against its capacity ${amountNumber(cap)}`);
        extraOver[k]!.excess += total - cap;
      }
    }
  });
  if (overloaded.length > 0)
    why.push(
      `capacity exceeded on board on ${overloaded.length} route(s) by ${amountNumber(excess)} in total (${listedItems(overloaded)})`,
    );
  if (backhaul.length > 0) why.push(`pickups_after_deliveries broken on ${backhaul.length} route(s) (${listedItems(backhaul)})`);
  const broken = brokenShipments(rules, solution, p.nodeCount);
  if (broken.length > 0) why.push(`${broken.length} shipment(s) not served by one vehicle with the pickup first (${listedItems(broken)})`);
  extraOver.forEach((over, k) => {
    if (over.routes.length > 0)
      why.push(
        `capacity of extra dimension ${k + 1} exceeded on ${over.routes.length} route(s) ` +
          `by ${amountNumber(over.excess)} in total (${listedItems(over.routes)})`,
      );
  });
  return why;
}

/** A pickup node followed later by a delivery node on the same route, or null. */
function firstPickupBeforeDelivery(p: CompiledProblem, rules: LoadRules, customers: readonly number[]): [number, number] | null {
  let firstPickup = -1;
  for (const node of customers) {
    if (rules.partner[node]! >= 0) continue; // shipment stops are exempt from the backhaul order
    if (firstPickup < 0 && rules.pickup[node]! > 0) firstPickup = node;
    if (firstPickup >= 0 && p.demand[node]! > 0) return [firstPickup, node];
  }
  return null;
}

function brokenShipments(rules: LoadRules, solution: Solution, nodeCount: number): string[] {
  const { vehicle, position } = shipmentPlaces(solution, nodeCount);
  const broken: string[] = [];
  rules.shipments.forEach((s, k) => {
    const vp = vehicle[s.pickup]!;
    const vd = vehicle[s.delivery]!;
    if (vp < 0 && vd < 0) return; // neither served: reported as missing customers
    if (vp < 0 || vd < 0) {
      const [served, missing] = vp < 0 ? [s.delivery, s.pickup] : [s.pickup, s.delivery];
      broken.push(`shipment ${k}: node ${served} served, its partner node ${missing} not`);
    } else if (vp !== vd) {
      broken.push(`shipment ${k}: pickup node ${s.pickup} on vehicle ${vp}, delivery node ${s.delivery} on vehicle ${vd}`);
    } else if (position[s.pickup]! > position[s.delivery]!) {
      broken.push(`shipment ${k}: delivery node ${s.delivery} before pickup node ${s.pickup} on vehicle ${vp}`);
    }
  });
  return broken;
}
