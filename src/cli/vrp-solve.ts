import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { checkCallbackUrl } from "../callbacks/target-guard.js";
import { createSpecBackend } from "../api/spec-backend.js";
import { validateSolveRequest } from "../api/validation/validate-solve-request.js";
import { ApiError, validationError } from "../errors/api-error.js";
import { errorEnvelope } from "../api/envelope.js";
import { solveRequest } from "../problem/solve-request.js";
import { strategyModulesFromEnv } from "../config/strategy-modules.js";
import { loadStrategyModules } from "../../strategies/registry.js";

const USAGE = `usage: vrp-solve <request.json | -> [--time-limit S] [--strategy NAME] [--seed N]

Solves one solve request (the body of POST /api/v1/solve) offline with the service's own validation
and strategies, and the strategy modules named in STRATEGY_MODULES (comma-separated folders, files or
installed package names). Prints the solved result object as JSON, or the failure envelope with exit
code 1.`;

interface CliOptions {
  file: string;
  timeLimit?: number;
  strategy?: string;
  seed?: number;
}

function parseArgs(argv: string[]): CliOptions {
  const opts: Partial<CliOptions> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--time-limit") opts.timeLimit = Number(value());
    else if (arg === "--strategy") opts.strategy = value();
    else if (arg === "--seed") opts.seed = Number(value());
    else if (arg === "--help" || arg === "-h") throw new Error("help");
    else if (opts.file === undefined) opts.file = arg;
    else throw new Error(`unexpected argument '${arg}'`);
  }
  if (opts.file === undefined) throw new Error("missing request file");
  if (opts.timeLimit !== undefined && !(Number.isInteger(opts.timeLimit) && opts.timeLimit > 0))
    throw new Error("--time-limit must be a positive integer");
  if (opts.seed !== undefined && !Number.isInteger(opts.seed)) throw new Error("--seed must be an integer");
  return opts as CliOptions;
}

/** Returns the process exit code; writes the JSON answer through `print`. */
export async function runVrpSolve(argv: string[], print: (text: string) => void, readStdin: () => string): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    // Asked for help: the usage on stdout and success; a wrong command line: the error and usage on stderr, 2.
    if ((err as Error).message === "help") {
      print(USAGE);
      return 0;
    }
    process.stderr.write(`vrp-solve: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  try {
    await loadStrategyModules(strategyModulesFromEnv());
  } catch (err) {
    process.stderr.write(`vrp-solve: ${(err as Error).message}\n`);
    return 2;
  }
  const requestId = randomUUID();
  const fail = (err: ApiError, extra: Record<string, unknown> = {}) => {
    print(JSON.stringify({ ...errorEnvelope(requestId, err), ...extra }, null, 2));
    return 1;
  };
  let body: unknown;
  try {
    body = JSON.parse(opts.file === "-" ? readStdin() : readFileSync(opts.file, "utf8"));
  } catch (err) {
    return fail(new ApiError("malformed_json", `Could not read a JSON request from '${opts.file}': ${(err as Error).message}`));
  }
  if (opts.strategy !== undefined && typeof body === "object" && body !== null) {
    (body as Record<string, unknown>).strategy = opts.strategy;
  }
  const api = await createSpecBackend({});
  const validation = validateSolveRequest(api, body, (url) => checkCallbackUrl(url, { allowLoopback: false }));
  if (!validation.ok) return fail(validationError(validation.issues));
  const request = validation.request;
  const outcome = solveRequest(request, {
    requestId,
    timeLimitSeconds: opts.timeLimit ?? request.time_limit_seconds ?? 10,
    ...(request.strategy ? { strategy: request.strategy } : {}),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
  });
  if (outcome.status === "solved") {
    print(JSON.stringify(outcome.result, null, 2));
    return 0;
  }
  return fail(new ApiError(outcome.code, outcome.error), { diagnostics: outcome.diagnostics, infeasibilities: outcome.infeasibilities });
}

export async function main(): Promise<void> {
  process.exitCode = await runVrpSolve(
    process.argv.slice(2),
    (t) => process.stdout.write(t + "\n"),
    () => readFileSync(0, "utf8"),
  );
}
