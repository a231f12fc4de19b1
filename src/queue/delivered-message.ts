import type { DeliveryInfo, JsMsg, PullOptions } from "@nats-io/jetstream";
import { nanos, type Msg, type MsgHdrs, type NatsConnection } from "@nats-io/transport-node";

/**
 * A message a pull consumer delivered, answered through its reply subject with the JetStream
 * acknowledgement protocol (+ACK, -NAK, +WPI, +TERM), on core NATS alone. The jetstream client
 * builds the same wrapper but does not export it, and its public pulls (`fetch`, `next`) wait at
 * least a second for a message, where the fair picker needs the server's immediate "nothing there".
 */

const encoder = new TextEncoder();
/** How long an acknowledgement that asks for the server's confirmation waits for it (the client's default). */
const ACK_ACK_TIMEOUT_MS = 5000;

/**
 * The tokens of a delivery's reply subject, `$JS.ACK.<domain>.<account hash>.<stream>.<consumer>.
 * <count>.<stream seq>.<consumer seq>.<ns>.<pending>` (the older form has no domain and hash).
 */
function ackTokens(reply: string): string[] {
  const tokens = reply.split(".");
  if (tokens.length === 9) tokens.splice(2, 0, "_", "");
  if (tokens.length < 11 || tokens[0] !== "$JS" || tokens[1] !== "ACK") throw new Error(`not a JetStream delivery: ${reply}`);
  return tokens;
}

/** The delivery's facts, from its reply subject. */
export function deliveryInfo(reply: string): DeliveryInfo {
  const tokens = ackTokens(reply);
  const number = (i: number) => Number.parseInt(tokens[i]!, 10);
  const deliveryCount = number(6);
  return {
    domain: tokens[2] === "_" ? "" : tokens[2]!,
    account_hash: tokens[3]!,
    stream: tokens[4]!,
    consumer: tokens[5]!,
    deliveryCount,
    redelivered: deliveryCount > 1,
    streamSequence: number(7),
    deliverySequence: number(8),
    timestampNanos: number(9),
    pending: number(10),
  };
}

/** Whether `msg` is a delivery from a consumer (not a status such as 404 "no messages"). */
export function isDelivery(msg: Msg): boolean {
  return !msg.headers?.hasError && (msg.reply?.startsWith("$JS.ACK.") ?? false);
}

export class DeliveredMessage implements JsMsg {
  readonly info: DeliveryInfo;
  private acknowledged = false;

  constructor(
    private readonly msg: Msg,
    private readonly nc: NatsConnection,
  ) {
    this.info = deliveryInfo(msg.reply!);
  }

  get redelivered(): boolean {
    return this.info.redelivered;
  }
  get seq(): number {
    return this.info.streamSequence;
  }
  get headers(): MsgHdrs | undefined {
    return this.msg.headers;
  }
  get data(): Uint8Array {
    return this.msg.data;
  }
  get subject(): string {
    return this.msg.subject;
  }
  get sid(): number {
    return this.msg.sid;
  }
  get time(): Date {
    return new Date(Math.floor(this.info.timestampNanos / 1e6));
  }
  get timestamp(): string {
    return this.time.toISOString();
  }
  get timestampNanos(): bigint {
    return BigInt(ackTokens(this.msg.reply!)[9]!);
  }

  /** Sends one final answer (the first wins, as in the client); "working" may be sent any number of times. */
  private answer(payload: string, final = true): void {
    if (this.acknowledged) return;
    if (final) this.acknowledged = true;
    this.msg.respond(encoder.encode(payload));
  }

  ack(): void {
    this.answer("+ACK");
  }

  nak(millis?: number): void {
    this.answer(millis ? `-NAK ${JSON.stringify({ delay: nanos(millis) })}` : "-NAK");
  }

  working(): void {
    this.answer("+WPI", false);
  }

  term(reason = ""): void {
    this.answer(reason ? `+TERM ${reason}` : "+TERM");
  }

  next(subj: string, opts: Partial<PullOptions> = { batch: 1 }): void {
    const args = { batch: opts.batch || 1, no_wait: opts.no_wait || false, ...(opts.expires ? { expires: nanos(opts.expires) } : {}) };
    this.msg.respond(encoder.encode(`+NXT ${JSON.stringify(args)}`), subj ? { reply: subj } : undefined);
  }

  /**
   * Acknowledges and waits for the server's confirmation: true when confirmed, false when already
   * answered. Without a confirmation the message counts as unanswered again, so the caller's next
   * `ack` or `ackAck` is sent (an acknowledgement the server has already applied is ignored).
   */
  async ackAck(opts?: Partial<{ timeout: number }>): Promise<boolean> {
    if (this.acknowledged) return false;
    this.acknowledged = true;
    try {
      await this.nc.request(this.msg.reply!, encoder.encode("+ACK"), { timeout: opts?.timeout ?? ACK_ACK_TIMEOUT_MS });
    } catch (err) {
      this.acknowledged = false;
      throw err;
    }
    return true;
  }

  json<T>(): T {
    return this.msg.json<T>();
  }

  string(): string {
    return this.msg.string();
  }
}
