import type { JsMsg } from "@nats-io/jetstream";
import { createInbox, nanos, type Msg, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import { DeliveredMessage, isDelivery } from "./delivered-message.js";
import { NAMES } from "./names.js";

/**
 * Takes messages from the flows' consumers, one pull at a time (of one message or a small batch),
 * through one inbox of its own (a delivered message carries its stream subject, not the inbox, so
 * the client's shared request inbox would not see it). A message delivered after the puller
 * stopped waiting for it is handed back at once, so nothing sits unacknowledged until its
 * ack_wait runs out.
 */
export class FlowPuller {
  private readonly inbox = createInbox();
  private readonly subscription: Subscription;
  /** Takes each answer of the pull under way: a delivery, or null for a status (no more messages). */
  private taking: ((m: JsMsg | null) => void) | null = null;

  constructor(
    private readonly nc: NatsConnection,
    /** The stream of the consumers pulled from (the help stream's for help items). */
    private readonly stream: string = NAMES.taskStream,
  ) {
    this.subscription = nc.subscribe(this.inbox, { callback: (_err, msg) => this.answer(msg) });
  }

  private answer(msg: Msg): void {
    const delivered = isDelivery(msg) ? new DeliveredMessage(msg, this.nc) : null;
    if (this.taking) this.taking(delivered);
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
    const taken = await this.pullUpTo(consumer, 1, timeoutMs, wait);
    return taken === "timeout" ? taken : (taken[0] ?? null);
  }

  /**
   * Up to `batch` messages the consumer has to give now (none when it has none), or "timeout"
   * without any answer in time. The server answers a batch it cannot fill with what it has and
   * then a status, which ends the pull; a batch cut short by the timeout keeps what came.
   */
  async pullUpTo(
    consumer: string,
    batch: number,
    timeoutMs: number,
    wait?: { expiresMs: number; waitForMessage?: boolean },
  ): Promise<JsMsg[] | "timeout"> {
    const taken: JsMsg[] = [];
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<JsMsg[] | "timeout">((resolve) => {
      const done = (result: JsMsg[] | "timeout") => {
        if (this.taking === take) this.taking = null;
        clearTimeout(timer);
        resolve(result);
      };
      const take = (m: JsMsg | null) => {
        if (m) taken.push(m);
        if (!m || taken.length >= batch) done(taken);
      };
      this.taking = take;
      timer = setTimeout(() => done(taken.length > 0 ? taken : "timeout"), timeoutMs);
    });
    try {
      const request = { batch, no_wait: !wait?.waitForMessage, ...(wait ? { expires: nanos(wait.expiresMs) } : {}) };
      this.nc.publish(`$JS.API.CONSUMER.MSG.NEXT.${this.stream}.${consumer}`, JSON.stringify(request), { reply: this.inbox });
    } catch {
      this.taking = null;
      clearTimeout(timer);
      return "timeout";
    }
    return answered;
  }

  close(): void {
    this.subscription.unsubscribe();
  }
}
