import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { solverNow } from "../../strategies/core/clock.js";
import type { HelpAnswer, HelpItem, HelpVerdict, Helpers } from "../../strategies/core/helpers.js";
import type { CompiledProblem } from "../../strategies/core/problem.js";
import { encodeProblem, type EncodedProblem } from "../queue/help-items.js";

/** From the worker's main thread to the solver thread. */
export type ToSolver = { kind: "available"; count: number } | { kind: "answer"; ticket: number; routes: number[][] | null };

/** From the solver thread to the worker's main thread (help-coordinator.ts). */
export type FromSolver =
  | {
      kind: "offer";
      ticket: number;
      dueInMs: number;
      item: { strategy: string; seed: number; seconds: number; problem: EncodedProblem; start: number[][] };
    }
  | { kind: "settled"; ticket: number; verdict: HelpVerdict };

/** Past its deadline this long without an answer from the main thread, an item counts as unanswered here too. */
const LATE_SLACK_MS = 200;

/**
 * The helper API on the solver thread: the strategy is synchronous, so offers are posted to the
 * main thread and answers are read off the port without waiting (receiveMessageOnPort) whenever
 * the strategy asks. The deadline is kept here as well, so an item is never waited for past it,
 * whatever happens to the main thread's messages.
 */
export class ThreadHelpers implements Helpers {
  private count = 0;
  private nextTicket = 1;
  private readonly due = new Map<number, number>();
  private readonly answers: HelpAnswer[] = [];
  /** A whole-problem search offers the same problem again and again: encoded once. */
  private readonly encoded = new WeakMap<CompiledProblem, EncodedProblem>();

  constructor(private readonly port: MessagePort) {}

  private drain(): void {
    for (let received = receiveMessageOnPort(this.port); received; received = receiveMessageOnPort(this.port)) {
      const message = received.message as ToSolver;
      if (message.kind === "available") this.count = message.count;
      else if (this.due.delete(message.ticket)) {
        this.answers.push({ ticket: message.ticket, solution: message.routes ? { routes: message.routes } : null });
      }
    }
  }

  available(): number {
    this.drain();
    return this.count;
  }

  offer(item: HelpItem, deadlineMs: number): number {
    const ticket = this.nextTicket++;
    this.due.set(ticket, deadlineMs);
    let problem: EncodedProblem;
    try {
      problem = this.encoded.get(item.problem) ?? encodeProblem(item.problem);
      this.encoded.set(item.problem, problem);
    } catch {
      // Not offered after all: it comes back unanswered at the next collect.
      this.due.set(ticket, Number.NEGATIVE_INFINITY);
      return ticket;
    }
    const message: FromSolver = {
      kind: "offer",
      ticket,
      dueInMs: Math.max(0, deadlineMs - solverNow()),
      item: { strategy: item.strategy, seed: item.seed, seconds: item.seconds, problem, start: item.start.routes },
    };
    this.port.postMessage(message);
    return ticket;
  }

  collect(): HelpAnswer[] {
    this.drain();
    const now = solverNow();
    for (const [ticket, deadline] of this.due) {
      if (now <= deadline + LATE_SLACK_MS) continue;
      this.due.delete(ticket);
      this.answers.push({ ticket, solution: null });
    }
    return this.answers.splice(0);
  }

  settled(ticket: number, verdict: HelpVerdict): void {
    this.port.postMessage({ kind: "settled", ticket, verdict } satisfies FromSolver);
  }
}
