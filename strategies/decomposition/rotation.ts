import type { Rng } from "../core/rng.js";

/**
 * Which route seeds the next group: rounds over the whole solution instead of independent random
 * draws. Each round visits the used routes in a fresh random order and skips those that some
 * group of the round already covered, so that one round's groups tile the solution (every
 * region searched once per round, none twice while another waits), and the next round's
 * different seeds and order cut the groups differently, moving their borders.
 */
export class RouteRotation {
  private order: number[] = [];
  private at = 0;
  private covered: Uint8Array;
  /** Rounds begun so far (1 during the first round). */
  rounds = 0;

  constructor(vehicles: number) {
    this.covered = new Uint8Array(vehicles);
  }

  /** The next seed route, or -1 when no route is used. */
  next(routes: readonly number[][], rng: Rng): number {
    for (let attempt = 0; attempt < 2; attempt++) {
      while (this.at < this.order.length) {
        const v = this.order[this.at++]!;
        if (!this.covered[v] && routes[v]!.length > 0) return v;
      }
      this.order = [];
      for (let v = 0; v < routes.length; v++) if (routes[v]!.length > 0) this.order.push(v);
      rng.shuffle(this.order);
      this.rounds++;
      this.at = 0;
      this.covered.fill(0);
    }
    return -1;
  }

  /** Marks a group's routes as searched in this round. */
  cover(group: readonly number[]): void {
    for (const v of group) this.covered[v] = 1;
  }
}
