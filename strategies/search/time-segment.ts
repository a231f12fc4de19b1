/**
 * Time-window feasibility of a route piece as concatenable data (Vidal et al. 2013; PyVRP's
 * DurationSegment): for a sequence of visits, `duration` is its least working time (travel,
 * service, waiting) among the start times of least `timeWarp` (lateness taken back to make the
 * schedule fit), and `earliest`/`latest` bound the start times that achieve both. Two pieces
 * concatenate in O(1), so moves are priced from prefix and suffix segments of the routes.
 *
 * The depot's window holds the departure (earliest = window start, latest = window end) and the
 * arrival back (its latest = window end), which is decisions.md's timing: departure at the window
 * start unless a later one avoids waiting, so with zero time warp `duration` is the evaluator's
 * route duration.
 */
export class TimeSegment {
  duration = 0;
  timeWarp = 0;
  earliest = 0;
  latest = 0;
  first = -1;
  last = -1;

  /** The single visit of `node`. */
  setNode(node: number, start: number, end: number, service: number): this {
    this.duration = service;
    this.timeWarp = 0;
    this.earliest = start;
    this.latest = end;
    this.first = node;
    this.last = node;
    return this;
  }

  set(duration: number, timeWarp: number, earliest: number, latest: number, first: number, last: number): this {
    this.duration = duration;
    this.timeWarp = timeWarp;
    this.earliest = earliest;
    this.latest = latest;
    this.first = first;
    this.last = last;
    return this;
  }

  /** Appends a segment (given by its fields) reached after `travel` minutes from this one's last visit. */
  append(travel: number, duration: number, timeWarp: number, earliest: number, latest: number, last: number): this {
    const delta = this.duration - this.timeWarp + travel;
    const wait = Math.max(earliest - delta - this.latest, 0);
    const warp = Math.max(this.earliest + delta - latest, 0);
    this.duration = this.duration + duration + travel + wait;
    this.timeWarp = this.timeWarp + timeWarp + warp;
    this.earliest = Math.max(earliest - delta, this.earliest) - wait;
    this.latest = Math.min(latest - delta, this.latest) + warp;
    this.last = last;
    return this;
  }
}
