import type { Penalties } from "../penalties.js";
import { Pieces } from "../pieces.js";
import type { Routes } from "../routes.js";

/**
 * Exact time-window price of inserting one customer into a route of the route model (Vidal et
 * al. 2013): the route's prefix time segment up to the insertion point, the customer, and the
 * suffix from the next position concatenate in O(1) (route-times.ts), so a greedy recreate under
 * binding windows prices every position with its true time warp and working-hours excess, not
 * just its detour.
 */
export class WindowInsertion {
  private readonly pieces = new Pieces();

  constructor(private readonly routes: Routes) {}

  /** Time penalty of route r (sequence `seq`, end node at `end`) with customer c inserted after position j. */
  penalty(r: number, _seq: Int32Array, end: number, j: number, c: number, pen: Penalties): number {
    const model = this.routes;
    const seg = model.candidates.segmentOf(
      r,
      this.pieces
        .reset()
        .add(r, 1, j)
        .node(c)
        .add(r, j + 1, end - 1),
    );
    const maxDuration = model.m.maxDuration;
    return pen.timeWarp * seg.timeWarp + (seg.duration > maxDuration ? pen.duration * (seg.duration - maxDuration) : 0);
  }
}
