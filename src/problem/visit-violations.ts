import type { components } from "../../generated/api.js";
import type { AnswerEvaluation } from "../../strategies/core/answer-evaluation.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { amountNumber, listedItems } from "./message-numbers.js";

type UnassignedNode = components["schemas"]["UnassignedNode"];

/**
 * The visit rules an evaluated answer breaks, with the amounts: shipments riding longer than
 * their max_ride_minutes, incompatible goods on board together, same-vehicle groups split. Empty
 * when it breaks none (or the problem has none). Part of a failed task's message.
 */
export function visitViolationReasons(p: CompiledProblem, answer: AnswerEvaluation): string[] {
  if (!p.visits) return [];
  const why: string[] = [];
  const rides: string[] = [];
  let over = 0;
  const mixed: string[] = [];
  for (const { vehicle: v, visits } of answer.routes) {
    if (!visits) continue;
    for (const ride of visits.rides) {
      rides.push(
        `node ${ride.pickup} -> node ${ride.delivery} on vehicle ${v} rides ${amountNumber(ride.rideMinutes)} min ` +
          `against its limit ${amountNumber(ride.maxRideMinutes)}`,
      );
      over += ride.rideMinutes - ride.maxRideMinutes;
    }
    if (visits.conflicts.length > 0) {
      const [a, b] = visits.conflicts[0]!.nodes;
      const goods = a === b ? `node ${a}'s goods (two incompatible types)` : `the goods of nodes ${a} and ${b}`;
      mixed.push(`vehicle ${v} carries ${goods} together on ${visits.conflicts.length} leg(s)`);
    }
  }
  if (rides.length > 0)
    why.push(`max_ride_minutes exceeded by ${rides.length} shipment(s) by ${amountNumber(over)} min in total (${listedItems(rides)})`);
  if (mixed.length > 0) why.push(`incompatible_load_types on board together on ${mixed.length} route(s) (${listedItems(mixed)})`);
  const split = answer.groups.map((g) => {
    const on = g.vehicles.map((v) => `vehicle ${v}`).join(", ");
    return g.unserved.length > 0
      ? `group ${g.group} served in part on ${on}, nodes ${g.unserved.join(", ")} left out`
      : `group ${g.group} split over ${on}`;
  });
  if (split.length > 0) why.push(`same_vehicle_groups not kept on one vehicle: ${split.length} group(s) (${listedItems(split)})`);
  return why;
}

/**
 * The `unassigned` entry of customer c when it belongs to a same-vehicle group and no proof of its
 * own names why it is out: the group is left out together. null for a customer in no group.
 */
export function groupUnassigned(p: CompiledProblem, c: number): UnassignedNode | null {
  const groupOf = p.visits?.groupOf;
  const g = groupOf ? groupOf[c]! : -1;
  if (g < 0) return null;
  const nodes = Array.from(p.visits!.groups[g]!);
  return {
    node: c,
    reason: "same_vehicle_group",
    message:
      `node ${c} was left out with the other stops of its same-vehicle group ${g} ` +
      `(nodes ${nodes.join(", ")}), which go on one vehicle or none`,
    evidence: { group: g, group_nodes: nodes },
  };
}
