import type { NatsConnection } from "@nats-io/transport-node";

/** The part of the client's protocol handler (nats-core's ProtocolHandler) this module replaces. */
interface ProtocolHandlerLike {
  outbound: { size(): number; fill(data: Uint8Array, ...payloads: Uint8Array[]): void };
  pendingLimit: number;
  flushPending(): void;
  sendCommand(cmd: string | Uint8Array, ...payloads: Uint8Array[]): void;
}

const encoder = new TextEncoder();

function isProtocolHandler(value: unknown): value is ProtocolHandlerLike {
  const p = value as Partial<ProtocolHandlerLike> | undefined;
  return (
    typeof p?.sendCommand === "function" &&
    typeof p.flushPending === "function" &&
    typeof p.pendingLimit === "number" &&
    typeof p.outbound?.fill === "function" &&
    typeof p.outbound.size === "function"
  );
}

/**
 * Makes the connection write what it has to send once per turn of the event loop instead of once
 * per microtask checkpoint. The client flushes its buffer after the code that queued a message
 * yields, so messages queued by separate I/O callbacks (one HTTP request, one NATS answer each)
 * went out in one socket write each; a write system call costs more than the message's own work.
 * Flushed from setImmediate, everything queued while the loop handles one batch of I/O leaves in
 * one write, right after that batch: an idle loop sends at once, a busy one sends less often.
 * Returns false, leaving the connection as it was, if the client's internals are not as expected.
 */
export function coalesceWrites(nc: NatsConnection): boolean {
  const protocol = (nc as unknown as { protocol?: unknown }).protocol;
  if (!isProtocolHandler(protocol)) return false;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    protocol.flushPending();
  };
  protocol.sendCommand = (cmd, ...payloads) => {
    protocol.outbound.fill(typeof cmd === "string" ? encoder.encode(cmd) : cmd, ...payloads);
    if (protocol.outbound.size() >= protocol.pendingLimit) protocol.flushPending();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return true;
}
