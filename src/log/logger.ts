/**
 * One JSON line per event on stdout. A dozen lines of our own rather than a logging library:
 * the service needs levels, a fixed set of base fields and secret-free output, nothing more.
 */
import { writeSync } from "node:fs";

type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose values are never written, wherever they appear. */
const SECRET_FIELDS = /^(x-api-key|api_key|apikey|key|secret|webhook_secret|x-marketplace-proxy-secret|authorization|password)$/i;

/** The `msg` of the log line with which the API and a worker say they are ready (its `url` field says where). */
export const READY_MESSAGE = "ready";

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** An info line written whatever the level: a line another process waits for (e.g. "ready"). */
  announce(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

function redact(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (value === null || typeof value !== "object" || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.test(k) ? "[redacted]" : redact(v, depth + 1);
  return out;
}

let stdoutLines: ((line: string, urgent?: boolean) => void) | null = null;

/**
 * How long an info or debug line may wait for others to share its write. A write to a pipe is a
 * system call that wakes the reader (make run's supervisor copies the lines to a file), and the
 * API logs a line or two per request: one write every few milliseconds instead of one per request.
 * Warnings, errors and announced lines go out at the end of the turn, with whatever waits before them.
 */
const LINE_DELAY_MS = 25;

/**
 * Lines in batches to `writeText`: the lines of one turn of the event loop at least, those of
 * `delayMs` when none is urgent. `flushNow` writes what waits (on exit).
 */
export function lineBatcher(
  writeText: (text: string) => void,
  delayMs: number,
): { line: (line: string, urgent?: boolean) => void; flushNow: () => void } {
  let pending: string[] = [];
  let timer: NodeJS.Timeout | null = null;
  let immediate = false;
  const flushNow = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    const text = pending.join("\n") + "\n";
    pending = [];
    writeText(text);
  };
  const line = (text: string, urgent = false) => {
    pending.push(text);
    if (urgent) {
      if (!immediate) {
        immediate = true;
        setImmediate(() => {
          immediate = false;
          flushNow();
        });
      }
    } else if (!timer && !immediate) {
      timer = setTimeout(flushNow, delayMs);
      timer.unref();
    }
  };
  return { line, flushNow };
}

/** Lines to stdout in batches (lineBatcher); lines still waiting when the process exits are written before it does. */
function batchedStdout(): (line: string, urgent?: boolean) => void {
  if (stdoutLines) return stdoutLines;
  let exiting = false;
  const batcher = lineBatcher((text) => (exiting ? writeSync(1, text) : process.stdout.write(text)), LINE_DELAY_MS);
  process.on("exit", () => {
    exiting = true;
    batcher.flushNow();
  });
  stdoutLines = (line, urgent) => {
    batcher.line(line, urgent);
    if (exiting) batcher.flushNow();
  };
  return stdoutLines;
}

export function createLogger(
  base: Record<string, unknown>,
  level: Level = "info",
  write: (line: string, urgent?: boolean) => void = batchedStdout(),
): Logger {
  return new JsonLogger(base, RANK[level], write);
}

/**
 * A class rather than closures: the API makes a child logger for every request, so a child has
 * to cost one small object, and a line below the level nothing at all.
 */
class JsonLogger implements Logger {
  constructor(
    private readonly base: Record<string, unknown>,
    private readonly minRank: number,
    private readonly write: (line: string, urgent?: boolean) => void,
  ) {}

  debug(msg: string, fields?: Record<string, unknown>): void {
    if (this.minRank <= RANK.debug) this.emit("debug", msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    if (this.minRank <= RANK.info) this.emit("info", msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    if (this.minRank <= RANK.warn) this.emit("warn", msg, fields, true);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    if (this.minRank <= RANK.error) this.emit("error", msg, fields, true);
  }
  announce(msg: string, fields?: Record<string, unknown>): void {
    this.emit("info", msg, fields, true);
  }
  child(fields: Record<string, unknown>): Logger {
    return new JsonLogger({ ...this.base, ...fields }, this.minRank, this.write);
  }

  private emit(lvl: Level, msg: string, fields?: Record<string, unknown>, urgent = false): void {
    const record = { time: new Date().toISOString(), level: lvl, msg, ...this.base, ...(fields ? (redact(fields) as object) : {}) };
    this.write(JSON.stringify(record), urgent);
  }
}
