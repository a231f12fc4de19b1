import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { JsMsg } from "@nats-io/jetstream";
import type { Msg, NatsConnection } from "@nats-io/transport-node";
import { NAMES } from "./names.js";

/**
 * The client's own wrapper of a delivered message (ack, nak, working, delivery info), which its
 * package does not export. Its pull API waits at least a second for a message; a scheduler that
 * has chosen a flow needs the server's immediate "nothing there" (no_wait) to move on to the next.
 */
const requireCjs = createRequire(import.meta.url);
const { toJsMsg } = requireCjs(join(dirname(requireCjs.resolve("@nats-io/jetstream")), "jsmsg.js")) as {
  toJsMsg(m: Msg, ackTimeout?: number): JsMsg;
};

/**
 * Takes one message from a consumer if it has one to give now, else null (nothing queued, the
 * consumer at its max_ack_pending, gone, or the request timed out; a message the server sent
 * after the timeout is redelivered once its ack_wait runs out).
 */
export async function pullNow(nc: NatsConnection, consumer: string, timeoutMs: number): Promise<JsMsg | null> {
  let reply: Msg;
  try {
    reply = await nc.request(`$JS.API.CONSUMER.MSG.NEXT.${NAMES.taskStream}.${consumer}`, JSON.stringify({ batch: 1, no_wait: true }), {
      timeout: timeoutMs,
    });
  } catch {
    return null;
  }
  if (reply.headers?.hasError || !reply.reply?.startsWith("$JS.ACK.")) return null;
  return toJsMsg(reply);
}
