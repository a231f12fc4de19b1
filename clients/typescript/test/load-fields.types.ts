/**
 * Type test, checked by `tsc` in the build (never run): the SDK's types carry the pickup-and-
 * delivery fields (constraints.md, second table) on the request and the loads on board on the
 * result. Each `@ts-expect-error` line must fail to compile, or the build fails.
 */
import type { SolveRequest, SolvedResult } from "../src/index.js";

export const courier: SolveRequest = {
  node_num: 4,
  vehicle_num: 1,
  distance_matrix: [],
  node_positions: [
    [0, 0],
    [1, 0],
    [2, 0],
    [3, 0],
  ],
  start_nodes: [0],
  end_nodes: [0],
  node_demands: [0, 2, 0, 0],
  vehicles_capacity: [10],
  node_pickups: [0, 0, 0, 0],
  pickups_after_deliveries: false,
  shipments: [{ pickup: 2, delivery: 3, amount: 4 }],
  node_extra_demands: [[0], [1], [0], [0]],
  vehicles_extra_capacity: [[5]],
};

// @ts-expect-error a shipment has exactly pickup, delivery and amount
export const wrongShipment: NonNullable<SolveRequest["shipments"]>[number] = { pickup: 2, delivery: 3 };

export function peakOnBoard(result: SolvedResult, label: string): number {
  const onBoard: number[] = result.loads_on_board?.[label] ?? [];
  const extra: number[][] = result.extra_loads_on_board?.[label] ?? [];
  // @ts-expect-error loads_on_board is optional: present only for requests with load fields
  const always: Record<string, number[]> = result.loads_on_board;
  return Math.max(0, ...onBoard, ...extra.flat(), Object.keys(always).length);
}
