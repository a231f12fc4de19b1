import { TimeSegment } from "./time-segment.js";

/** What a trip segment needs of the vehicle that drives it: its travel minutes and its capacity per trip. */
export interface TripTerms {
  /** Travel minutes from node a to node b. */
  minutes(a: number, b: number): number;
  readonly capacity: number;
}

/**
 * A piece of a route with reload stops as concatenable data, so that a candidate route is priced
 * from the stored prefixes and suffixes of the routes it takes pieces from in O(pieces), as time
 * segments alone do without trips. A trip's depot visit (the start node or a reload stop) opens
 * no earlier than the latest release time of the trip's customers, which are known only once the
 * trip is closed by the next reload stop or the end of the route. So a piece is held in four parts:
 * - `front`: the visits before its first reload stop (all of them when it has none), the end of a
 *   trip that starts before the piece, with their latest release and their load;
 * - `closed`: from the first reload stop to the visit before the last one: trips whose releases
 *   are settled, with the sum of their loads above capacity;
 * - the last reload stop (`reload`, its window `reloadOpen..reloadClose`), whose trip is open;
 * - `back`: the visits after it, with their latest release and their load.
 * Concatenation joins the first piece's open trip with the second's front, and when the second
 * holds a reload stop, closes that trip. Empty parts have `first` = -1.
 */
export class TripSegment {
  reloads = false;
  readonly front = new TimeSegment();
  frontRelease = Number.NEGATIVE_INFINITY;
  frontLoad = 0;
  readonly closed = new TimeSegment();
  closedExcess = 0;
  reload = -1;
  reloadOpen = 0;
  reloadClose = 0;
  readonly back = new TimeSegment();
  backRelease = Number.NEGATIVE_INFINITY;
  backLoad = 0;
  private readonly trip = new TimeSegment();

  constructor() {
    this.clear();
  }

  clear(): this {
    this.reloads = false;
    this.front.first = -1;
    this.frontRelease = Number.NEGATIVE_INFINITY;
    this.frontLoad = 0;
    this.closed.first = -1;
    this.closedExcess = 0;
    this.reload = -1;
    this.back.first = -1;
    this.backRelease = Number.NEGATIVE_INFINITY;
    this.backLoad = 0;
    return this;
  }

  /** One customer's visit. */
  customer(c: number, open: number, close: number, service: number, release: number, demand: number): this {
    this.clear();
    this.front.setNode(c, open, close, service);
    this.frontRelease = release;
    this.frontLoad = demand;
    return this;
  }

  /** One depot visit that starts a trip (a reload stop, or the vehicle's start with its departure window). */
  depot(node: number, open: number, close: number): this {
    this.clear();
    this.reloads = true;
    this.reload = node;
    this.reloadOpen = open;
    this.reloadClose = close;
    return this;
  }

  copy(o: TripSegment): this {
    this.reloads = o.reloads;
    copyPart(this.front, o.front);
    this.frontRelease = o.frontRelease;
    this.frontLoad = o.frontLoad;
    copyPart(this.closed, o.closed);
    this.closedExcess = o.closedExcess;
    return this.takeLastTrip(o);
  }

  /** Appends `o` (driven right after this piece) on the vehicle of `terms`. */
  append(o: TripSegment, terms: TripTerms): this {
    if (!this.reloads) {
      join(this.front, o.front, terms);
      this.frontRelease = Math.max(this.frontRelease, o.frontRelease);
      this.frontLoad += o.frontLoad;
      if (!o.reloads) return this;
      this.reloads = true;
      copyPart(this.closed, o.closed);
      this.closedExcess = o.closedExcess;
    } else {
      join(this.back, o.front, terms);
      this.backRelease = Math.max(this.backRelease, o.frontRelease);
      this.backLoad += o.frontLoad;
      if (!o.reloads) return this;
      this.closeTrip(terms);
      join(this.closed, o.closed, terms);
      this.closedExcess += o.closedExcess;
    }
    return this.takeLastTrip(o);
  }

  /** o's last reload stop and open trip as this segment's. */
  private takeLastTrip(o: TripSegment): this {
    this.reload = o.reload;
    this.reloadOpen = o.reloadOpen;
    this.reloadClose = o.reloadClose;
    copyPart(this.back, o.back);
    this.backRelease = o.backRelease;
    this.backLoad = o.backLoad;
    return this;
  }

  /** Appends one customer's visit (as append with a customer segment, without building one). */
  appendCustomer(c: number, open: number, close: number, service: number, release: number, demand: number, terms: TripTerms): this {
    const part = this.reloads ? this.back : this.front;
    if (part.first < 0) part.setNode(c, open, close, service);
    else part.append(terms.minutes(part.last, c), service, 0, open, close, c);
    if (this.reloads) {
      if (release > this.backRelease) this.backRelease = release;
      this.backLoad += demand;
    } else {
      if (release > this.frontRelease) this.frontRelease = release;
      this.frontLoad += demand;
    }
    return this;
  }

  /** Appends a reload stop (as append with a depot segment, without building one). */
  appendReload(node: number, open: number, close: number, terms: TripTerms): this {
    if (this.reloads) this.closeTrip(terms);
    this.reloads = true;
    this.reload = node;
    this.reloadOpen = open;
    this.reloadClose = close;
    this.back.first = -1;
    this.backRelease = Number.NEGATIVE_INFINITY;
    this.backLoad = 0;
    return this;
  }

  /**
   * Closes the open trip (the last reload stop and the visits after it) into `closed`: the stop
   * opens at the later of its window's start and the trip's release; one that cannot open before
   * its window closes departs late, the difference counted as time warp. The open trip's fields
   * are stale afterwards; callers overwrite them.
   */
  private closeTrip(terms: TripTerms): this {
    const open = Math.max(this.reloadOpen, this.backRelease);
    const trip = this.trip;
    if (open <= this.reloadClose) trip.setNode(this.reload, open, this.reloadClose, 0);
    else trip.set(0, open - this.reloadClose, open, open, this.reload, this.reload);
    join(trip, this.back, terms);
    join(this.closed, trip, terms);
    if (this.backLoad > terms.capacity) this.closedExcess += this.backLoad - terms.capacity;
    return this;
  }

  /**
   * The whole route's time segment, this being the vehicle's start followed by its visits: the
   * last trip closed and the drive to the end node, which must be reached by `arriveClose`.
   * Leaves this segment finished (only `closed` and `closedExcess` are meaningful afterwards).
   */
  finish(end: number, arriveClose: number, terms: TripTerms): TimeSegment {
    this.closeTrip(terms);
    this.reloads = false;
    return this.closed.append(terms.minutes(this.closed.last, end), 0, 0, Number.NEGATIVE_INFINITY, arriveClose, end);
  }
}

function copyPart(to: TimeSegment, from: TimeSegment): void {
  to.set(from.duration, from.timeWarp, from.earliest, from.latest, from.first, from.last);
}

/** `to` followed by `from` (either may be empty). */
function join(to: TimeSegment, from: TimeSegment, terms: TripTerms): void {
  if (from.first < 0) return;
  if (to.first < 0) copyPart(to, from);
  else to.append(terms.minutes(to.last, from.first), from.duration, from.timeWarp, from.earliest, from.latest, from.last);
}
