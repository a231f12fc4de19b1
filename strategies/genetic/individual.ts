import { CostEvaluator } from "../search/cost-evaluator.js";
import { routeSegment, type Penalties } from "../search/identical-vehicles-model.js";
import type { ProblemData } from "../search/problem-data.js";
import { TimeSegment } from "../search/time-segment.js";

const NO_PENALTIES: Penalties = { load: 0, duration: 0, timeWarp: 0 };

const LOAD_EPS = 1e-9;
const DURATION_EPS = 1e-7;
/** Under windows: time warp and segment-duration excess count as feasible below this (stricter than the evaluator's 1e-7). */
const WINDOW_EPS = 1e-9;
const segment = new TimeSegment();

/** One solution of the population, with what selection and diversity measures need. */
export class Individual {
  readonly routes: number[][];
  /** The routes concatenated: the chromosome that crossover works on. */
  readonly tour: Int32Array;
  /** Neighbours of each customer in its route (the depot stands for a route end). */
  readonly successor: Int32Array;
  readonly predecessor: Int32Array;
  readonly distanceCost: number;
  readonly loadExcess: number;
  readonly durationExcess: number;
  readonly timeWarp: number;
  readonly feasible: boolean;
  penalisedCost = 0;
  biasedFitness = 0;

  constructor(m: ProblemData, routes: number[][], pen: Penalties) {
    this.routes = routes;
    this.tour = new Int32Array(m.customers.length);
    this.successor = new Int32Array(m.nodeCount);
    this.predecessor = new Int32Array(m.nodeCount);
    const n = m.nodeCount;
    let at = 0;
    let cost = 0;
    let loadExcess = 0;
    let durationExcess = 0;
    let timeWarp = 0;
    // The objective alone: the excesses are summed apart, and priced at `pen` below.
    const costs = new CostEvaluator(m);
    costs.penalties = NO_PENALTIES;
    const capacity = m.capacity[0]!;
    const depot = m.start[0]!;
    const speed = m.speed[0]!;
    for (const route of routes) {
      if (route.length === 0) continue;
      let distance = 0;
      let load = 0;
      let service = 0;
      let prev = depot;
      for (let k = 0; k < route.length; k++) {
        const c = route[k]!;
        this.tour[at++] = c;
        distance += m.dist[prev * n + c]!;
        load += m.demand[c]!;
        service += m.service[c]!;
        this.predecessor[c] = prev;
        this.successor[c] = k + 1 < route.length ? route[k + 1]! : depot;
        prev = c;
      }
      distance += m.dist[prev * n + depot]!;
      cost += costs.fromTotals(0, route.length, distance, load, service);
      loadExcess += Math.max(0, load - capacity);
      if (m.durationLimit !== Number.POSITIVE_INFINITY) durationExcess += Math.max(0, distance / speed + service - m.durationLimit);
      if (m.windows) {
        routeSegment(m, route, route.length, segment);
        timeWarp += segment.timeWarp;
        durationExcess += Math.max(0, segment.duration - m.windows.maxDuration);
      }
    }
    this.distanceCost = cost;
    this.loadExcess = loadExcess;
    this.durationExcess = durationExcess;
    this.timeWarp = timeWarp;
    this.feasible =
      loadExcess <= LOAD_EPS && (m.windows ? durationExcess <= WINDOW_EPS && timeWarp <= WINDOW_EPS : durationExcess <= DURATION_EPS);
    this.reprice(pen);
  }

  reprice(pen: Penalties): void {
    this.penalisedCost = this.distanceCost + pen.load * this.loadExcess + pen.duration * this.durationExcess + pen.timeWarp * this.timeWarp;
  }

  /** Share of customers whose route neighbours differ (Prins' broken pairs, as in HGS). */
  brokenPairs(other: Individual, m: ProblemData): number {
    let differ = 0;
    const depot = m.start[0]!;
    const customers = m.customers;
    for (let k = 0; k < customers.length; k++) {
      const c = customers[k]!;
      if (this.successor[c] !== other.successor[c] && this.successor[c] !== other.predecessor[c]) differ++;
      if (this.predecessor[c] === depot && other.predecessor[c] !== depot && other.successor[c] !== depot) differ++;
    }
    return differ / Math.max(1, m.customers.length);
  }
}
