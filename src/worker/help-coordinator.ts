import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { Logger } from "../log/logger.js";
import type { HelpMetrics } from "../metrics/help-metrics.js";
import type { Nats } from "../queue/connection.js";
import type { HelpAnswerMessage, HelpItemMessage } from "../queue/help-items.js";
import { NAMES } from "../queue/names.js";
import type { FromSolver, ToSolver } from "./thread-helpers.js";

/** Tasks of fewer nodes get no help channel: the large strategy searches them whole (hgs). */
const COOPERATIVE_MIN_NODES = 300;
/** A helper not heard from for this long (three announcements missed) is no longer counted. */
const HELPER_SILENT_MS = 1600;

/** A worker's word on the help subject: it could take items, or no longer. */
export interface HelperNotice {
  id: string;
  available: boolean;
}

interface Session {
  port: MessagePort;
  number: number;
}

interface Pending {
  session: Session;
  ticket: number;
  timer: NodeJS.Timeout;
}

/**
 * The owner's side of cooperative solves on a worker's main thread: counts the workers that
 * announce they could help, tells each running cooperative solve how many there are, publishes
 * its offers on the help stream and relays the answers (core NATS, to this worker's own answer
 * subject) back to it. An item with no answer by its deadline is answered null here, so the
 * solver thread never waits on a helper.
 */
export class HelpCoordinator {
  private readonly helpers = new Map<string, number>();
  private readonly sessions = new Set<Session>();
  private readonly pending = new Map<string, Pending>();
  private readonly subscriptions;
  private readonly answerSubject: string;
  private readonly recount: NodeJS.Timeout;
  private count = 0;
  private sessionNumber = 0;

  constructor(
    private readonly nats: Nats,
    private readonly metrics: HelpMetrics,
    private readonly log: Logger,
    /** This worker's own id: its own announcements are not a helper for its own tasks. */
    private readonly workerId: string,
  ) {
    this.answerSubject = `${NAMES.helpAnswerSubjectPrefix}.${workerId}`;
    this.subscriptions = [
      nats.nc.subscribe(NAMES.helpAvailableSubject, { callback: (_err, m) => this.noticed(m.string()) }),
      nats.nc.subscribe(this.answerSubject, { callback: (_err, m) => this.answered(m.string()) }),
    ];
    this.recount = setInterval(() => this.publishCount(), HELPER_SILENT_MS / 4);
    this.recount.unref();
  }

  /** A help channel for one task's solve (the solver thread's end of it), or undefined for a small task. */
  open(nodes: number): { port: MessagePort; close(): void } | undefined {
    if (nodes < COOPERATIVE_MIN_NODES) return undefined;
    const channel = new MessageChannel();
    const session: Session = { port: channel.port1, number: ++this.sessionNumber };
    this.sessions.add(session);
    session.port.on("message", (m: FromSolver) => this.fromSolver(session, m));
    this.post(session, { kind: "available", count: this.count });
    return {
      port: channel.port2,
      close: () => {
        this.sessions.delete(session);
        for (const [id, p] of this.pending) {
          if (p.session !== session) continue;
          clearTimeout(p.timer);
          this.pending.delete(id);
        }
        session.port.close();
      },
    };
  }

  private post(session: Session, message: ToSolver): void {
    if (this.sessions.has(session)) session.port.postMessage(message);
  }

  private noticed(text: string): void {
    try {
      const notice = JSON.parse(text) as HelperNotice;
      if (notice.id === this.workerId) return;
      if (notice.available) this.helpers.set(notice.id, Date.now());
      else this.helpers.delete(notice.id);
      this.publishCount();
    } catch {
      /* not a notice */
    }
  }

  private publishCount(): void {
    const now = Date.now();
    for (const [id, seen] of this.helpers) if (now - seen > HELPER_SILENT_MS) this.helpers.delete(id);
    if (this.helpers.size === this.count) return;
    this.count = this.helpers.size;
    for (const session of this.sessions) this.post(session, { kind: "available", count: this.count });
  }

  private fromSolver(session: Session, m: FromSolver): void {
    if (m.kind === "settled") {
      if (m.verdict === "merged") this.metrics.merged.inc();
      else this.metrics.dropped.inc({ reason: m.verdict });
      return;
    }
    const id = `${this.workerId}.${session.number}.${m.ticket}`;
    const timer = setTimeout(() => this.unanswered(id, "late"), m.dueInMs);
    this.pending.set(id, { session, ticket: m.ticket, timer });
    const item: HelpItemMessage = { id, replyTo: this.answerSubject, dueAt: Date.now() + m.dueInMs, ...m.item };
    this.metrics.offered.inc();
    this.nats.js.publish(NAMES.helpItemSubject, JSON.stringify(item)).catch((err: unknown) => {
      this.log.warn("help item not published", { err });
      this.unanswered(id, "unsent");
    });
  }

  private unanswered(id: string, reason: "late" | "unsent"): void {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    this.metrics.dropped.inc({ reason });
    this.post(p.session, { kind: "answer", ticket: p.ticket, routes: null });
  }

  private answered(text: string): void {
    let answer: HelpAnswerMessage;
    try {
      answer = JSON.parse(text) as HelpAnswerMessage;
    } catch {
      return;
    }
    const p = this.pending.get(answer.id);
    // An answer after the deadline: the item was already given up.
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(answer.id);
    const routes = Array.isArray(answer.routes) ? answer.routes : null;
    if (!routes) this.metrics.dropped.inc({ reason: "not_better" });
    this.post(p.session, { kind: "answer", ticket: p.ticket, routes });
  }

  stop(): void {
    clearInterval(this.recount);
    for (const s of this.subscriptions) s.unsubscribe();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    for (const session of this.sessions) session.port.close();
    this.sessions.clear();
  }
}
