import type { LocalSearch } from "../search/local-search.js";

/**
 * The iterated search's one undo: a copy of each route of the current solution, kept in step with
 * the route store by the modification clock. A rejected candidate is undone by writing back only
 * the routes rewritten since it began, and of those only the ones that differ from their copy (a
 * route a ruin took apart and the recreate put back as it was keeps its modification time, as it
 * would if the current solution were loaded whole). O(changed routes) per iteration.
 */
export class RouteUndo {
  private readonly saved: Int32Array[];
  private readonly savedLength: Int32Array;
  private readonly differing: Int32Array;

  constructor(private readonly ls: LocalSearch) {
    const m = ls.m;
    this.saved = Array.from({ length: m.routes }, () => new Int32Array(m.customers.length));
    this.savedLength = new Int32Array(m.routes);
    this.differing = new Int32Array(m.routes);
  }

  /** The routes the search holds are current: copies are taken of those rewritten after clock `since` (-1: all). */
  save(since: number): void {
    const rs = this.ls.rs;
    for (let r = 0; r < rs.m.routes; r++) {
      if (rs.modifiedAt[r]! <= since) continue;
      this.savedLength[r] = rs.length[r]!;
      this.saved[r]!.set(rs.seq[r]!.subarray(1, rs.length[r]! + 1));
    }
  }

  /** Back to the current solution: routes rewritten after clock `since` that differ from their copy are written back. */
  restore(since: number): void {
    const rs = this.ls.rs;
    let count = 0;
    for (let r = 0; r < rs.m.routes; r++) if (rs.modifiedAt[r]! > since && !this.holds(r)) this.differing[count++] = r;
    // Optional customers: one the candidate served may be on no saved route, so its place goes
    // first (the store keeps a rewritten route's old places when the writer says so).
    if (rs.m.skipPrice) {
      for (let i = 0; i < count; i++) {
        const r = this.differing[i]!;
        const seq = rs.seq[r]!;
        for (let k = 1; k <= rs.length[r]!; k++) if (rs.routeOf[seq[k]!] === r) rs.routeOf[seq[k]!] = -1;
      }
    }
    for (let i = 0; i < count; i++) {
      const r = this.differing[i]!;
      this.ls.setRoute(r, this.saved[r]!, this.savedLength[r]!);
    }
  }

  private holds(r: number): boolean {
    const rs = this.ls.rs;
    const length = this.savedLength[r]!;
    if (rs.length[r] !== length) return false;
    const seq = rs.seq[r]!;
    const saved = this.saved[r]!;
    for (let k = 0; k < length; k++) if (seq[k + 1] !== saved[k]) return false;
    return true;
  }
}
