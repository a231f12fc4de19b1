import type { Rng } from "./rng.js";
import { InsertionMemo } from "./insertion-memo.js";
import type { Workspace } from "./workspace.js";

const SEQUENTIAL_ABOVE = 120;

/**
 * Regret-k insertion (k = 1 is plain greedy): repeatedly inserts the unassigned customer whose
 * best insertion would cost most to postpone. Customers that fit nowhere stay unassigned.
 */
export function regretInsertion(ws: Workspace, k: number, rng: Rng | null = null, noise = 0, sequentialAbove = SEQUENTIAL_ABOVE): void {
  const pending = ws.unassigned.slice();
  if (rng) rng.shuffle(pending);
  // Regret needs every pending customer re-scored per step: quadratic, so long lists are
  // inserted one by one at their cheapest position instead.
  if (pending.length > sequentialAbove) {
    for (const c of pending) {
      const best = ws.bestInsertions(c, 1)[0];
      if (best) ws.insert(c, best.vehicle, best.position);
    }
    return;
  }
  const memo = new InsertionMemo(ws, pending);
  while (pending.length > 0) {
    let pick = -1;
    let pickScore = Number.NEGATIVE_INFINITY;
    let pickInsertion = null;
    for (let i = 0; i < pending.length; i++) {
      const c = pending[i]!;
      const options = memo.bestInsertions(c, Math.max(1, k));
      if (options.length === 0) continue;
      const best = options[0]!;
      let score: number;
      if (k <= 1) {
        score = -best.delta;
      } else {
        score = 0;
        for (let j = 1; j < k; j++) score += (options[j]?.delta ?? ws.penalty) - best.delta;
      }
      if (noise > 0 && rng) score *= 1 + noise * (rng.next() - 0.5);
      if (score > pickScore) {
        pickScore = score;
        pick = i;
        pickInsertion = best;
      }
    }
    if (pick < 0 || !pickInsertion) break;
    const c = pending[pick]!;
    pending.splice(pick, 1);
    ws.insert(c, pickInsertion.vehicle, pickInsertion.position);
    memo.forget(pickInsertion.vehicle);
  }
}
