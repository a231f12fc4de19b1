/**
 * Preloaded into the service's processes (NODE_OPTIONS=--require) by `pipeline-partner --ops`:
 * counts every message a process sends to NATS by kind (consumer list, pull, ack, KV write, event
 * publish, ...), and on SIGUSR2 appends the counts so far, with the process's role, as one JSON
 * line to NATS_OPS_FILE. The bench signals before and after a phase and takes the difference.
 * Plain CommonJS so that it loads before the compiled service without a build step.
 */
"use strict";
const { appendFileSync } = require("node:fs");
const { ProtocolHandler } = require("@nats-io/nats-core/internal");

const file = process.env.NATS_OPS_FILE;
const script = process.argv[1] ?? "";
const role = script.endsWith("worker.js") ? "worker" : script.endsWith("api.js") ? "api" : null;

if (file && role) {
  const counts = new Map();
  const decoder = new TextDecoder();
  const kindOf = (subject, payload) => {
    if (subject.startsWith("$JS.ACK.")) {
      const text = typeof payload === "string" ? payload : decoder.decode(payload ?? new Uint8Array());
      return `ack ${text.split(/\s/)[0] || "+ACK"}`;
    }
    if (subject.startsWith("$JS.API.DIRECT.GET.")) return `direct get ${subject.split(".")[4]}`;
    const api = /^\$JS\.API\.(CONSUMER\.MSG\.NEXT|CONSUMER\.DURABLE\.CREATE|STREAM\.MSG\.GET|[A-Z]+\.[A-Z]+)\.([^.]+)/.exec(subject);
    if (api) return `api ${api[1]} ${api[2]}`;
    if (subject.startsWith("$KV.")) return `kv write ${subject.split(".")[1]}`;
    if (subject.startsWith("vrp.events.")) return "event publish";
    if (subject.startsWith("vrp.tasks.solve")) return "task publish";
    if (subject.startsWith("_INBOX.")) return "reply";
    return `core ${subject.split(".").slice(0, 3).join(".")}`;
  };
  const publish = ProtocolHandler.prototype.publish;
  ProtocolHandler.prototype.publish = function (subject, payload, options) {
    const kind = kindOf(subject, payload);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    return publish.call(this, subject, payload, options);
  };
  process.on("SIGUSR2", () => {
    appendFileSync(file, `${JSON.stringify({ pid: process.pid, role, counts: Object.fromEntries(counts) })}\n`);
  });
}
