import type { JsMsg } from "@nats-io/jetstream";
import { createInbox, nanos, type Msg, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import { DeliveredMessage, isDelivery } from "./delivered-message.js";
import { NAMES } from "./names.js";

/**
 * Takes single messages from the flows' consumers, one pull at a time, through one inbox of its
 * own (a delivered message carries its stream subject, not the inbox, so the client's shared
 * request inbox would not see it). A message delivered after the puller stopped waiting for it
 * is handed back at once, so nothing sits unacknowledged until its ack_wait runs out.
 */
export class FlowPuller {
  private readonly inbox = createInbox();
  private readonly subscription: Subscription;
  private waiting: ((m: JsMsg | null | "timeout") => void) | null = null;

  constructor(
    private readonly nc: NatsConnection,
    /** The stream of the consumers pulled from (the help stream's for help items). */
    private readonly stream: string = NAMES.taskStream,
  ) {
    this.subscription = nc.subscribe(this.inbox, { callback: (_err, msg) => this.answer(msg) });
  }

  private answer(msg: Msg): void {
    const delivered = isDelivery(msg) ? new DeliveredMessage(msg, this.nc) : null;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(delivered);
    else delivered?.nak();
  }

  /**
   * One message from the consumer if it has one to give now, null if it has none, "timeout"
   * without an answer in time. With `wait`, the server holds the pull for up to `expiresMs`:
   * for a consumer at its limit (which answers a no_wait pull only with a redelivery, or when the
   * expiry has run out), or, with `waitForMessage`, until a message is stored.
   */
  async pull(
    consumer: string,
    timeoutMs: number,
    wait?: { expiresMs: number; waitForMessage?: boolean },
  ): Promise<JsMsg | null | "timeout"> {
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<JsMsg | null | "timeout">((resolve) => {
      this.waiting = resolve;
      timer = setTimeout(() => {
        if (this.waiting === resolve) this.waiting = null;
        resolve("timeout");
      }, timeoutMs);
    });
    try {
      const request = { batch: 1, no_wait: !wait?.waitForMessage, ...(wait ? { expires: nanos(wait.expiresMs) } : {}) };
      this.nc.publish(`$JS.API.CONSUMER.MSG.NEXT.${this.stream}.${consumer}`, JSON.stringify(request), { reply: this.inbox });
    } catch {
      this.waiting = null;
      clearTimeout(timer);
      return "timeout";
    }
    const message = await answered;
    clearTimeout(timer);
    return message;
  }

  close(): void {
    this.subscription.unsubscribe();
  }
}
