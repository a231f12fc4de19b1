import type { SolveRequest } from "./types.js";

export interface Shipment {
  pickup: number;
  delivery: number;
  amount: number;
}

/** The request's shipments that name two nodes in range (anything else is the service's to refuse). */
export function shipmentsOf(request: SolveRequest): Shipment[] {
  const list = Array.isArray(request.shipments) ? (request.shipments as Shipment[]) : [];
  return list.filter(
    (s) => Number.isInteger(s.pickup) && Number.isInteger(s.delivery) && s.pickup < request.node_num && s.delivery < request.node_num,
  );
}

/**
 * Each shipment's two stops linked by a dashed line from the pickup to the delivery, in the colour
 * of the vehicle that serves them (grey before a solution), the pickup ringed and the delivery
 * marked with a dot, so pairs can be told from the routes. Returns how many links were drawn.
 */
export function drawShipmentLinks(
  ctx: CanvasRenderingContext2D,
  shipments: Shipment[],
  sx: number[],
  sy: number[],
  colorOf: (node: number) => string | null,
  dense: boolean,
): number {
  ctx.save();
  ctx.lineWidth = dense ? 1 : 1.5;
  for (const s of shipments) {
    const color = colorOf(s.pickup) ?? "#8a8f99";
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.setLineDash([5, 4]);
    ctx.beginPath();
    ctx.moveTo(sx[s.pickup]!, sy[s.pickup]!);
    ctx.lineTo(sx[s.delivery]!, sy[s.delivery]!);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(sx[s.pickup]!, sy[s.pickup]!, dense ? 4 : 7, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(sx[s.delivery]!, sy[s.delivery]!, dense ? 2.5 : 4.5, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.restore();
  return shipments.length;
}

/** Tooltip lines about a node's pickup and shipment. */
export function describeLoads(request: SolveRequest, node: number): string[] {
  const lines: string[] = [];
  const pickups = request.node_pickups;
  if (Array.isArray(pickups) && typeof pickups[node] === "number" && pickups[node] > 0) lines.push(`pickup ${pickups[node]}`);
  const extra = request.node_extra_demands;
  if (Array.isArray(extra) && Array.isArray(extra[node])) lines.push(`extra demands ${(extra[node] as number[]).join(", ")}`);
  shipmentsOf(request).forEach((s, k) => {
    if (s.pickup === node) lines.push(`shipment ${k}: picks up ${s.amount} for node ${s.delivery}`);
    if (s.delivery === node) lines.push(`shipment ${k}: delivers ${s.amount} from node ${s.pickup}`);
  });
  return lines;
}
