import { AckPolicy, DeliverPolicy, RetentionPolicy, StorageType, type JetStreamManager } from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import { euclidean, type CompiledProblem, type Solution, type TimeBlock } from "../../strategies/core/problem.js";
import { NAMES } from "./names.js";

/**
 * The wire form of a cooperative solve's items (strategies/core/helpers.ts): a sub-problem as
 * base64 typed arrays, its distances left out when they are the coordinates' (the helper computes
 * the same numbers with the same formula), so a 500-customer group is some 30 KB, not 2 MB.
 */

/** An item older than this is useless (every item is due within seconds): the stream drops it. */
const ITEM_MAX_AGE_MS = 120_000;
/** A helper that took an item and vanished: redelivered after this, when it is long past due. */
const ITEM_ACK_WAIT_MS = 5_000;

export interface EncodedProblem {
  nodeCount: number;
  vehicleCount: number;
  customers: string;
  isDepot: string;
  /** Empty: the distances are the coordinates' euclidean ones. */
  dist: string;
  /**
   * Present: `dist` holds the distances times 10^distDecimals as 32-bit integers (a matrix given
   * with that many decimals travels in half the bytes, and decodes to the same numbers).
   */
  distDecimals?: number;
  demand: string;
  capacity: string;
  fixedCost: string;
  unitCost: string;
  startNode: string;
  endNode: string;
  coords: string | null;
  objective: "distance" | "cost";
  /** `maxRouteMin` null: no cap (JSON has no Infinity). */
  time: {
    twStartMin: string;
    twEndMin: string;
    serviceMin: string;
    speed: string;
    maxRouteMin: number | null;
    latePenaltyPerMin: number;
  } | null;
}

/** One item as published on the help stream. */
export interface HelpItemMessage {
  id: string;
  /** Core NATS subject the answer goes to. */
  replyTo: string;
  /** Epoch milliseconds after which nobody waits for the answer. */
  dueAt: number;
  strategy: string;
  seed: number;
  seconds: number;
  problem: EncodedProblem;
  start: number[][];
}

/** A helper's answer; `routes` null when it could not solve the item. */
export interface HelpAnswerMessage {
  id: string;
  routes: number[][] | null;
}

type Typed = Float64Array | Int32Array | Uint8Array;

function b64(values: Typed): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString("base64");
}

function bytes(text: string): ArrayBuffer {
  const buffer = Buffer.from(text, "base64");
  // A fresh buffer: typed arrays need their element alignment, which a pooled Buffer may not have.
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}

const f64 = (text: string) => new Float64Array(bytes(text));
const i32 = (text: string) => new Int32Array(bytes(text));

/** Decimals up to which a given matrix travels as scaled integers. */
const MAX_DIST_DECIMALS = 3;

/** The fewest decimals (up to MAX_DIST_DECIMALS) that write every distance exactly, or null. */
function distanceDecimals(dist: Float64Array): number | null {
  for (let k = 0; k <= MAX_DIST_DECIMALS; k++) {
    const scale = 10 ** k;
    let exact = true;
    for (let i = 0; i < dist.length && exact; i++) {
      const scaled = Math.round(dist[i]! * scale);
      exact = Math.abs(scaled) < 2 ** 31 && scaled / scale === dist[i];
    }
    if (exact) return k;
  }
  return null;
}

function encodeDistances(p: Pick<CompiledProblem, "nodeCount" | "dist" | "coords">): { dist: string; distDecimals?: number } {
  if (coordinateDistances(p)) return { dist: "" };
  const decimals = distanceDecimals(p.dist);
  if (decimals === null) return { dist: b64(p.dist) };
  const scale = 10 ** decimals;
  const scaled = new Int32Array(p.dist.length);
  for (let i = 0; i < scaled.length; i++) scaled[i] = Math.round(p.dist[i]! * scale);
  return { dist: b64(scaled), distDecimals: decimals };
}

function decodeDistances(e: EncodedProblem): Float64Array {
  if (e.distDecimals === undefined) return f64(e.dist);
  const scale = 10 ** e.distDecimals;
  const scaled = i32(e.dist);
  const dist = new Float64Array(scaled.length);
  for (let i = 0; i < dist.length; i++) dist[i] = scaled[i]! / scale;
  return dist;
}

function coordinateDistances(p: Pick<CompiledProblem, "nodeCount" | "dist" | "coords">): boolean {
  const n = p.nodeCount;
  if (!p.coords || p.dist.length !== n * n) return false;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (p.dist[i * n + j] !== (i === j ? 0 : euclidean(p.coords, i, j))) return false;
  return true;
}

/** Why a sub-problem cannot travel as an item (a field the wire form does not carry), or null. */
export function encodingRefusal(p: CompiledProblem): string | null {
  if (p.rules || p.loads || p.locks || p.reassignment || p.travel || p.trips) return "it uses rules the item format does not carry";
  if (p.dist.length !== p.nodeCount * p.nodeCount) return "it has no dense matrix";
  return null;
}

export function encodeProblem(p: CompiledProblem): EncodedProblem {
  const refusal = encodingRefusal(p);
  if (refusal) throw new Error(`this sub-problem cannot be offered: ${refusal}`);
  const t: TimeBlock | null = p.time;
  return {
    nodeCount: p.nodeCount,
    vehicleCount: p.vehicleCount,
    customers: b64(p.customers),
    isDepot: b64(p.isDepot),
    ...encodeDistances(p),
    demand: b64(p.demand),
    capacity: b64(p.capacity),
    fixedCost: b64(p.fixedCost),
    unitCost: b64(p.unitCost),
    startNode: b64(p.startNode),
    endNode: b64(p.endNode),
    coords: p.coords ? b64(p.coords) : null,
    objective: p.objective,
    time: t
      ? {
          twStartMin: b64(t.twStartMin),
          twEndMin: b64(t.twEndMin),
          serviceMin: b64(t.serviceMin),
          speed: b64(t.speed),
          maxRouteMin: Number.isFinite(t.maxRouteMin) ? t.maxRouteMin : null,
          latePenaltyPerMin: t.latePenaltyPerMin,
        }
      : null,
  };
}

/** The sub-problem an item carries; throws on anything malformed (the helper then answers null). */
export function decodeProblem(e: EncodedProblem): CompiledProblem {
  const n = e.nodeCount;
  const coords = e.coords === null ? null : f64(e.coords);
  let dist: Float64Array;
  if (e.dist === "") {
    if (!coords || coords.length !== 2 * n) throw new Error("an item without distances must carry coordinates");
    dist = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) dist[i * n + j] = i === j ? 0 : euclidean(coords, i, j);
  } else dist = decodeDistances(e);
  if (dist.length !== n * n) throw new Error("the item's matrix does not match its node count");
  const problem: CompiledProblem = {
    nodeCount: n,
    vehicleCount: e.vehicleCount,
    customers: i32(e.customers),
    isDepot: new Uint8Array(bytes(e.isDepot)),
    dist,
    demand: f64(e.demand),
    capacity: f64(e.capacity),
    fixedCost: f64(e.fixedCost),
    unitCost: f64(e.unitCost),
    startNode: i32(e.startNode),
    endNode: i32(e.endNode),
    coords,
    objective: e.objective,
    time: e.time
      ? {
          twStartMin: f64(e.time.twStartMin),
          twEndMin: f64(e.time.twEndMin),
          serviceMin: f64(e.time.serviceMin),
          speed: f64(e.time.speed),
          maxRouteMin: e.time.maxRouteMin ?? Number.POSITIVE_INFINITY,
          latePenaltyPerMin: e.time.latePenaltyPerMin,
        }
      : null,
  };
  const nodes = [problem.isDepot, problem.demand];
  const vehicles = [problem.capacity, problem.fixedCost, problem.unitCost, problem.startNode, problem.endNode];
  if (nodes.some((a) => a.length !== n) || vehicles.some((a) => a.length !== e.vehicleCount))
    throw new Error("the item's arrays do not match its sizes");
  return problem;
}

export function startSolution(routes: number[][]): Solution {
  return { routes: routes.map((r) => r.slice()) };
}

/** The help stream and its consumer; idempotent, so every worker makes sure of them at start. */
export async function ensureHelpStream(jsm: JetStreamManager, replicas: number): Promise<void> {
  const stream = {
    name: NAMES.helpStream,
    subjects: [NAMES.helpItemSubject],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    num_replicas: replicas,
    max_age: nanos(ITEM_MAX_AGE_MS),
  };
  try {
    await jsm.streams.info(NAMES.helpStream);
  } catch {
    await jsm.streams.add(stream).catch(async (err: unknown) => {
      if (!/already in use|exists/i.test(String(err))) throw err;
    });
  }
  await jsm.consumers
    .add(NAMES.helpStream, {
      durable_name: NAMES.helpConsumer,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ITEM_ACK_WAIT_MS),
      max_deliver: 2,
      filter_subject: NAMES.helpItemSubject,
    })
    .catch((err: unknown) => {
      if (!/already exists|exists/i.test(String(err))) throw err;
    });
}
