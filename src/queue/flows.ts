import { createHash } from "node:crypto";
import { AckPolicy, DeliverPolicy, type ConsumerConfig, type ConsumerInfo, type JetStreamManager } from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import type { Plan } from "../config/plans.js";
import { NAMES } from "./names.js";

/**
 * A flow is one account's queue of tasks: its own subject in the task stream and its own durable
 * pull consumer (non-overlapping filters, as a work-queue stream requires). The consumer's
 * `max_ack_pending` is the plan's `max_solving`, so JetStream itself caps the workers one account
 * holds; its description carries the plan and weight the workers schedule by.
 */

/** The legacy subject's consumer, drained like an account's flow of weight 1. */
export const LEGACY_FLOW = "legacy";

/** A consumer nobody pulls from for this long is removed by the server (longer than any solve). */
const FLOW_INACTIVE_MS = 3600_000;
/** Longer keys are hashed: consumer names end up in file names on the server. */
const MAX_HEX_KEY = 160;

export function flowKey(owner: string): string {
  const hex = Buffer.from(owner, "utf8").toString("hex");
  return hex.length <= MAX_HEX_KEY ? hex : `h${createHash("sha256").update(owner).digest("hex").slice(0, 40)}`;
}

/** The owner a key was made from, or null for a hashed key. */
export function ownerOfKey(key: string): string | null {
  return /^[0-9a-f]+$/.test(key) && key.length % 2 === 0 ? Buffer.from(key, "hex").toString("utf8") : null;
}

export function flowSubject(key: string): string {
  return `${NAMES.flowSubjectPrefix}${key}`;
}

export function flowConsumer(key: string): string {
  return `${NAMES.flowConsumerPrefix}${key}`;
}

export interface FlowDescription {
  plan: string;
  weight: number;
}

/** One flow as a consumers list shows it. */
export interface FlowState extends FlowDescription {
  key: string;
  consumer: string;
  /** Tasks not yet delivered to any worker. */
  pending: number;
  /** Tasks delivered and not acknowledged (solving, held, or awaiting redelivery). */
  ackPending: number;
  maxAckPending: number;
  /** Deliveries made so far by the consumer (its sequence). */
  delivered: number;
}

export function flowConfig(key: string, plan: Pick<Plan, "name" | "weight" | "maxSolving">, ackWaitMs: number): Partial<ConsumerConfig> {
  const description: FlowDescription = { plan: plan.name, weight: plan.weight };
  return {
    durable_name: flowConsumer(key),
    description: JSON.stringify(description),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    // As for the legacy consumer: poison tasks are failed by the worker from the delivery count.
    max_deliver: -1,
    max_ack_pending: plan.maxSolving,
    inactive_threshold: nanos(FLOW_INACTIVE_MS),
    filter_subject: flowSubject(key),
  };
}

/** Creates or updates an account's consumer; idempotent, so any API instance or worker may do it. */
export async function ensureFlow(
  jsm: JetStreamManager,
  key: string,
  plan: Pick<Plan, "name" | "weight" | "maxSolving">,
  ackWaitMs: number,
): Promise<void> {
  const config = flowConfig(key, plan, ackWaitMs);
  try {
    await jsm.consumers.add(NAMES.taskStream, config);
  } catch (err) {
    // An existing consumer with another configuration (the plan changed): update what may change.
    if (!/already exists|exists/i.test(err instanceof Error ? err.message : String(err))) throw err;
    const { description, max_ack_pending, ack_wait, inactive_threshold } = config;
    await jsm.consumers.update(NAMES.taskStream, flowConsumer(key), { description, max_ack_pending, ack_wait, inactive_threshold });
  }
}

function parseDescription(text: string | undefined): FlowDescription {
  try {
    const parsed = JSON.parse(text ?? "") as Partial<FlowDescription>;
    if (typeof parsed.plan === "string" && typeof parsed.weight === "number" && parsed.weight > 0) {
      return { plan: parsed.plan, weight: parsed.weight };
    }
  } catch {
    /* not one of ours */
  }
  return { plan: "unknown", weight: 1 };
}

/** One consumer's flow, or null for a consumer of the task stream that is no flow. */
function flowOf(info: ConsumerInfo): FlowState | null {
  const name = info.name;
  const legacy = name === NAMES.taskConsumer;
  if (!legacy && !name.startsWith(NAMES.flowConsumerPrefix)) return null;
  const description = legacy ? { plan: LEGACY_FLOW, weight: 1 } : parseDescription(info.config.description);
  return {
    ...description,
    key: legacy ? LEGACY_FLOW : name.slice(NAMES.flowConsumerPrefix.length),
    consumer: name,
    pending: info.num_pending,
    ackPending: info.num_ack_pending,
    maxAckPending: info.config.max_ack_pending ?? Number.MAX_SAFE_INTEGER,
    delivered: info.delivered.consumer_seq,
  };
}

/** Every flow of the task stream (the legacy consumer included), from one consumers list. */
export async function listFlows(jsm: JetStreamManager): Promise<FlowState[]> {
  const flows: FlowState[] = [];
  for await (const info of jsm.consumers.list(NAMES.taskStream)) {
    const flow = flowOf(info);
    if (flow) flows.push(flow);
  }
  return flows;
}

/** One flow from its own consumer's info (answered by that consumer alone, unlike a list). */
export async function readFlow(jsm: JetStreamManager, consumer: string): Promise<FlowState | null> {
  return flowOf(await jsm.consumers.info(NAMES.taskStream, consumer));
}

/** The consumer of the flow `key` (the legacy one included). */
export function consumerOfKey(key: string): string {
  return key === LEGACY_FLOW ? NAMES.taskConsumer : flowConsumer(key);
}

/**
 * Keys of flows with messages in the stream but no consumer (one removed for inactivity while
 * every worker was down): their consumers must be made again or the tasks would never run.
 */
export async function strandedFlows(jsm: JetStreamManager, known: ReadonlySet<string>): Promise<string[]> {
  const info = await jsm.streams.info(NAMES.taskStream, { subjects_filter: `${NAMES.flowSubjectPrefix}>` });
  const subjects = info.state.subjects ?? {};
  return Object.keys(subjects)
    .filter((s) => (subjects[s] ?? 0) > 0)
    .map((s) => s.slice(NAMES.flowSubjectPrefix.length))
    .filter((key) => !known.has(key));
}
