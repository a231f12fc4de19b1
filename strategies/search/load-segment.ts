/**
 * The load of a route piece in one dimension as concatenable data (PyVRP's LoadSegment): what
 * the piece delivers (loaded at the vehicle's start), what it picks up (carried to the end), and
 * the most on board at any point of it. Two pieces concatenate in O(1): the first piece carries
 * the second's deliveries throughout, the second carries the first's pickups throughout, so
 *   peak = max(first.peak + second.delivery, second.peak + first.pickup).
 * With no pickups the peak is the delivered total, which is what capacity bounds today; with
 * pickups (backhauls, shipments) the same concatenation prices every move exactly.
 */
export class LoadSegment {
  delivery = 0;
  pickup = 0;
  peak = 0;

  /** The single visit of a node that receives `delivery` and hands over `pickup`. */
  setNode(delivery: number, pickup: number): this {
    this.delivery = delivery;
    this.pickup = pickup;
    this.peak = Math.max(delivery, pickup);
    return this;
  }

  set(delivery: number, pickup: number, peak: number): this {
    this.delivery = delivery;
    this.pickup = pickup;
    this.peak = peak;
    return this;
  }

  /** Appends a piece given by its fields (this piece first). */
  append(delivery: number, pickup: number, peak: number): this {
    this.peak = Math.max(this.peak + delivery, peak + this.pickup);
    this.delivery += delivery;
    this.pickup += pickup;
    return this;
  }

  /** Load above `capacity` at the worst point of the piece (0 when it fits). */
  excess(capacity: number): number {
    return this.peak > capacity ? this.peak - capacity : 0;
  }
}

/**
 * One load dimension of a problem: per node the amount delivered and picked up, and per vehicle
 * the capacity. Dimension 0 is `node_demands` / `vehicles_capacity`; further dimensions
 * (`node_extra_demands`, constraints.md) and pickups (`node_pickups`) come as more of these.
 */
export interface LoadDimension {
  delivery: Float64Array;
  /** null: nothing is picked up in this dimension (then the peak is the delivered total). */
  pickup: Float64Array | null;
  /** Per route slot (vehicle). */
  capacity: Float64Array;
}
