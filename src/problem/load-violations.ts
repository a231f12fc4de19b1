import type { AnswerEvaluation, ShipmentBreach } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { amountNumber, listedItems } from "./message-numbers.js";

const EPS = 1e-9;

/**
 * The load rules an evaluated answer breaks, with the amounts: capacity on board, backhaul
 * order, shipments split or reversed, extra dimensions. Empty when it breaks none of them (or the
 * problem has no load rules). Part of a failed task's message.
 */
export function loadViolationReasons(p: CompiledProblem, answer: AnswerEvaluation): string[] {
  const rules = p.loads;
  if (!rules) return [];
  const why: string[] = [];
  const overloaded: string[] = [];
  let excess = 0;
  const backhaul: string[] = [];
  const extraOver = Array.from({ length: rules.extraDims }, () => ({ routes: [] as string[], excess: 0 }));
  answer.routes.forEach(({ vehicle: v, route, loads }) => {
    if (!loads) return;
    if (loads.overloaded) {
      const at = loads.peakAt;
      const after = at <= route.length ? route[at - 1] : p.endNode[v];
      overloaded.push(
        `vehicle ${v} has ${amountNumber(loads.peakOnBoard)} on board ` +
          `${at === 0 ? "leaving its start node" : `after node ${after}`} ` +
          `against its capacity ${amountNumber(p.capacity[v]!)}`,
      );
      excess += loads.peakOnBoard - p.capacity[v]!;
    }
    const wrong = loads.pickupBeforeDelivery;
    if (wrong) backhaul.push(`vehicle ${v} picks up at node ${wrong[0]} before delivering at node ${wrong[1]}`);
    for (let k = 0; k < rules.extraDims; k++) {
      const total = loads.extraDelivered[k]!;
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
  const broken = answer.shipments.map(shipmentMessage);
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

function shipmentMessage(b: ShipmentBreach): string {
  if (b.kind === "half") return `shipment ${b.shipment}: node ${b.served} served, its partner node ${b.missing} not`;
  if (b.kind === "split") {
    const [pickup, delivery] = [
      `pickup node ${b.pickup} on vehicle ${b.pickupVehicle}`,
      `delivery node ${b.delivery} on vehicle ${b.deliveryVehicle}`,
    ];
    return `shipment ${b.shipment}: ${pickup}, ${delivery}`;
  }
  return `shipment ${b.shipment}: delivery node ${b.delivery} before pickup node ${b.pickup} on vehicle ${b.vehicle}`;
}
