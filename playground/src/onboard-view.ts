import type { VehiclePlan } from "./plan-view.js";

export const ON_BOARD_COLOR = "#111827";

/** The on-board loads of a result (`loads_on_board`, `extra_loads_on_board`) for one vehicle label. */
export function onBoardOf(
  result: { loads_on_board?: Record<string, number[]>; extra_loads_on_board?: Record<string, number[][]> },
  label: string,
): { onBoard: number[] | null; extraOnBoard: number[][] | null } {
  return { onBoard: result.loads_on_board?.[label] ?? null, extraOnBoard: result.extra_loads_on_board?.[label] ?? null };
}

/** "on board after each stop 7, 3, 0, 5, 7, 7 (peak 7 of 8)", for the row's label and title. */
export function describeOnBoard(vehicle: VehiclePlan): string {
  if (!vehicle.onBoard) return "";
  const peak = Math.max(...vehicle.onBoard);
  const extra = vehicle.extraOnBoard?.[0]?.length ? `; volume etc. at the start ${vehicle.extraOnBoard[0].join(", ")}` : "";
  return `on board after each stop ${vehicle.onBoard.join(", ")} (peak ${peak} of ${vehicle.capacity})${extra}`;
}

/**
 * The load on board along the row as a step line, scaled to the vehicle's capacity (top of the
 * row = full): it changes at each stop when the vehicle leaves it (timed), or at evenly spaced
 * stops along the distance bar (untimed). A dashed line marks the capacity when the peak reaches it.
 */
export function drawOnBoard(
  ctx: CanvasRenderingContext2D,
  vehicle: VehiclePlan,
  x: (t: number) => number,
  timed: boolean,
  height: number,
): void {
  const loads = vehicle.onBoard;
  if (!loads || loads.length === 0) return;
  const capacity = Math.max(vehicle.capacity, ...loads, 1e-9);
  const y = (load: number) => height - 2 - (load / capacity) * (height - 4);
  const last = loads.length - 1;
  const at = (i: number) => {
    const stop = vehicle.stops[i];
    if (timed && stop) return x(stop.leave ?? stop.arrive ?? 0);
    return x((vehicle.distance * i) / Math.max(1, last));
  };
  ctx.strokeStyle = ON_BOARD_COLOR;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(at(0), y(loads[0]!));
  for (let i = 1; i <= last; i++) {
    ctx.lineTo(at(i), y(loads[i - 1]!));
    ctx.lineTo(at(i), y(loads[i]!));
  }
  ctx.stroke();
  if (Math.max(...loads) >= vehicle.capacity) {
    ctx.setLineDash([2, 2]);
    ctx.beginPath();
    ctx.moveTo(at(0), y(vehicle.capacity));
    ctx.lineTo(at(last), y(vehicle.capacity));
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
