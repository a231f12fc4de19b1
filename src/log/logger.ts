/**
 * One JSON line per event on stdout. A dozen lines of our own rather than a logging library:
 * the service needs levels, a fixed set of base fields and secret-free output, nothing more.
 */
type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose values are never written, wherever they appear. */
const SECRET_FIELDS = /^(x-api-key|api_key|apikey|key|secret|webhook_secret|x-marketplace-proxy-secret|authorization|password)$/i;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
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

export function createLogger(
  base: Record<string, unknown>,
  level: Level = "info",
  write: (line: string) => void = (line) => process.stdout.write(line + "\n"),
): Logger {
  const emit = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < RANK[level]) return;
    const record = { time: new Date().toISOString(), level: lvl, msg, ...base, ...(fields ? (redact(fields) as object) : {}) };
    write(JSON.stringify(record));
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger({ ...base, ...fields }, level, write),
  };
}
