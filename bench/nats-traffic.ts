/**
 * What the service asked of NATS in a phase, from nats-server's monitoring endpoints: the
 * messages each role's connections sent to the server (`/connz` in_msgs: every publish, KV read or
 * write, pull, ack, consumers list) and received from it (out_msgs: replies, deliveries, wake-ups),
 * and the messages each stream stored (`/jsz` last sequence: a KV bucket is a stream, so every KV
 * write, task message and event is one stored write). Independent of the machine's load.
 */
export interface TrafficSnapshot {
  sent: Record<string, number>;
  received: Record<string, number>;
  stored: Record<string, number>;
}

interface Connz {
  connections: { name?: string; in_msgs: number; out_msgs: number }[];
}

interface Jsz {
  account_details?: { stream_detail?: { name: string; state: { last_seq: number } }[] }[];
}

export const ROLES = ["api", "workers", "other"] as const;

function roleOf(name: string | undefined): (typeof ROLES)[number] {
  if (name === "vrp-api") return "api";
  if (name?.startsWith("vrp-worker-")) return "workers";
  return "other";
}

export async function trafficSnapshot(monitorUrl: string): Promise<TrafficSnapshot> {
  const [connz, jsz] = await Promise.all([
    fetch(`${monitorUrl}/connz?limit=1000`).then((r) => r.json() as Promise<Connz>),
    fetch(`${monitorUrl}/jsz?accounts=true&streams=true`).then((r) => r.json() as Promise<Jsz>),
  ]);
  const sent: Record<string, number> = { api: 0, workers: 0, other: 0 };
  const received: Record<string, number> = { api: 0, workers: 0, other: 0 };
  for (const c of connz.connections) {
    sent[roleOf(c.name)]! += c.in_msgs;
    received[roleOf(c.name)]! += c.out_msgs;
  }
  const stored: Record<string, number> = {};
  for (const account of jsz.account_details ?? []) {
    for (const stream of account.stream_detail ?? []) stored[stream.name] = stream.state.last_seq;
  }
  return { sent, received, stored };
}

/**
 * Markdown tables of a phase's traffic per task: messages per role, then stored writes per stream
 * (streams without a write left out). Connections that closed within the phase are not counted.
 */
export function trafficTables(phase: string, tasks: number, before: TrafficSnapshot, after: TrafficSnapshot): string {
  const per = (a: number | undefined, b: number | undefined) => ((b ?? 0) - (a ?? 0)) / tasks;
  const lines = [`NATS messages per task, ${phase} (${tasks} tasks):`, "| role | sent | received |", "|---|---:|---:|"];
  for (const role of ROLES) {
    const sent = per(before.sent[role], after.sent[role]);
    const received = per(before.received[role], after.received[role]);
    lines.push(`| ${role} | ${sent.toFixed(2)} | ${received.toFixed(2)} |`);
  }
  lines.push("", `Stored writes per task, ${phase}:`, "| stream | writes |", "|---|---:|");
  let total = 0;
  for (const name of Object.keys(after.stored).sort()) {
    const writes = per(before.stored[name], after.stored[name]);
    if (writes === 0) continue;
    total += writes;
    lines.push(`| ${name} | ${writes.toFixed(2)} |`);
  }
  lines.push(`| total | ${total.toFixed(2)} |`);
  return lines.join("\n");
}

/** A subject with its task ids, account keys and inbox tokens replaced, so subjects of one kind count together. */
export function subjectKind(subject: string): string {
  return subject
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .replace(/^_INBOX\..*/, "_INBOX.<reply>")
    .replace(/^\$JS\.ACK\..*/, "$JS.ACK.<delivery>")
    .replace(/(flow_|vrp\.tasks\.solve\.)[0-9a-f]+/g, "$1<key>")
    .replace(/(\$KV\.vrp_history\.h\.)[0-9a-f]+\.\d+\.<id>/, "$1<entry>");
}

/** Counts by kind of subject, most frequent first, per task, as a markdown table. */
export function subjectTable(counts: Map<string, number>, tasks: number): string {
  const rows = [...counts].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `| \`${kind}\` | ${(n / tasks).toFixed(2)} |`);
  return ["| subject | messages per task |", "|---|---:|", ...rows].join("\n");
}
