import { generateWebhookSecret } from "../callbacks/signature.js";
import { loadConfig } from "../config/load.js";
import { Admission, SYSTEM_CLOCK } from "../limits/admission.js";
import { KvCounter } from "../limits/kv-counter.js";
import { createLogger } from "../log/logger.js";
import { connectNats, type Nats } from "../queue/connection.js";
import { AccountStore, keyStateAt } from "../store/accounts.js";
import { HistoryStore } from "../store/history.js";

const USAGE = `vrpctl: the account center of the VRP solve service (talks to NATS at $NATS_URL).

  vrpctl plans                                   list the plans and their limits
  vrpctl account create <user> [--plan <plan>]   create an account (without --plan: the plans file's
                                                 default_plan, starter in config/plans.json)
  vrpctl account plan <user> <plan>              change an account's plan
  vrpctl account disable|enable <user>           disable or re-enable an account (all its keys)
  vrpctl accounts                                list accounts
  vrpctl key create <user> [--expires <ISO date | Nd>]
                                                 create an API key; printed once, alone on the last line
  vrpctl key list <user>                         list keys: fingerprint, created, expires, state
  vrpctl key revoke|disable|enable <user> <fingerprint>
  vrpctl usage <user>                            submissions this minute and this month
  vrpctl history <user> [--limit N]              the account's planning history, newest first
  vrpctl webhook-secret <user>                   create (or rotate) the account's callback signing secret
`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined) throw new UsageError(`${name} needs a value`);
  args.splice(i, 2);
  return value;
}

function parseExpiry(text: string, now = Date.now()): Date {
  const days = /^(\d+)d$/.exec(text);
  const date = days ? new Date(now + Number(days[1]) * 86_400_000) : new Date(text);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--expires must be an ISO date or a number of days like 30d, got '${text}'`);
  if (date.getTime() <= now) throw new UsageError(`--expires must be in the future, got '${text}' (${date.toISOString()})`);
  return date;
}

/** What a person needs when NATS is not there: the address tried and how to give another. */
function unreachableMessage(servers: string[], err: unknown): string {
  const reason = err instanceof Error ? err.message : String(err);
  const source = process.env.NATS_URL ? "from NATS_URL" : "the default; NATS_URL is not set";
  return [
    `cannot reach NATS at ${servers.join(", ")} (${source}): ${reason}.`,
    "vrpctl talks to the NATS server of the running service. Start the service (make run), or point",
    "vrpctl at its NATS with NATS_URL, e.g. after `NATS_PORT=14222 make run`:",
    "  NATS_URL=nats://127.0.0.1:14222 npx vrpctl accounts",
  ].join("\n");
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return "(none)";
  const cols = Object.keys(rows[0]!);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(width[i]!))
      .join("  ")
      .trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => String(r[c] ?? ""))))].join("\n");
}

export async function runVrpctl(argv: string[], print: (line: string) => void): Promise<void> {
  const args = [...argv];
  const config = loadConfig();
  const [command, sub] = args;
  if (!command || command === "help" || command === "--help") {
    print(USAGE);
    return;
  }
  if (command === "plans") {
    print(
      table(
        [...config.plans.plans.values()].map((p) => ({
          plan: p.name,
          api_access: p.apiAccess,
          max_nodes: p.maxNodes,
          max_vehicles: p.maxVehicles,
          max_solve_seconds: p.maxSolveSeconds,
          submits_per_minute: p.submitsPerMinute,
          monthly_quota: p.monthlyQuota,
        })),
      ),
    );
    return;
  }
  const log = createLogger({ service: "vrpctl" }, "error", (line) => process.stderr.write(line + "\n"));
  let nats: Nats | null = null;
  try {
    nats = await connectNats(config, "vrpctl", log, { failFast: true }).catch((err: unknown) => {
      throw new Error(unreachableMessage(config.natsServers, err));
    });
    const accounts = new AccountStore(nats.accounts, nats.apiKeys);
    const need = (i: number, what: string) => {
      const v = args[i];
      if (v === undefined) throw new UsageError(`missing ${what}`);
      return v;
    };
    if (command === "account" && sub === "create") {
      const chosen = option(args, "--plan");
      const plan = chosen ?? config.plans.defaultPlan;
      if (!config.plans.plans.has(plan)) throw new UsageError(`unknown plan '${plan}' (see 'vrpctl plans')`);
      const account = await accounts.createAccount(need(2, "<user>"), plan);
      print(
        `created account '${account.user}' on plan ` +
          `'${account.plan}'${chosen === undefined ? " (the default plan; choose one with --plan <plan>)" : ""}`,
      );
    } else if (command === "account" && sub === "plan") {
      const plan = need(3, "<plan>");
      if (!config.plans.plans.has(plan)) throw new UsageError(`unknown plan '${plan}' (see 'vrpctl plans')`);
      const a = await accounts.updateAccount(need(2, "<user>"), (acc) => ({ ...acc, plan }));
      print(`account '${a.user}' is now on plan '${a.plan}'`);
    } else if (command === "account" && (sub === "disable" || sub === "enable")) {
      const a = await accounts.updateAccount(need(2, "<user>"), (acc) => ({ ...acc, disabled: sub === "disable" }));
      print(`account '${a.user}' is ${a.disabled ? "disabled" : "enabled"}`);
    } else if (command === "accounts") {
      print(
        table((await accounts.listAccounts()).map((a) => ({ user: a.user, plan: a.plan, disabled: a.disabled, created: a.createdAt }))),
      );
    } else if (command === "key" && sub === "create") {
      const expires = option(args, "--expires");
      const { key, record } = await accounts.createKey(need(2, "<user>"), expires ? parseExpiry(expires) : null);
      print(
        `created key ${record.fingerprint} for ` +
          `'${record.user}'${record.expiresAt ? `, expires ${record.expiresAt}` : ""}; it ` +
          `is shown only now:`,
      );
      print(key);
    } else if (command === "key" && sub === "list") {
      print(
        table(
          (await accounts.listKeys(need(2, "<user>"))).map((k) => ({
            fingerprint: k.fingerprint,
            created: k.createdAt,
            expires: k.expiresAt ?? "never",
            state: keyStateAt(k, new Date()),
          })),
        ),
      );
    } else if (command === "key" && (sub === "revoke" || sub === "disable" || sub === "enable")) {
      const state = sub === "revoke" ? "revoked" : sub === "disable" ? "disabled" : "active";
      const k = await accounts.setKeyState(need(2, "<user>"), need(3, "<fingerprint>"), state);
      print(`key ${k.fingerprint} of '${k.user}' is now ${k.state}`);
    } else if (command === "usage") {
      const user = need(1, "<user>");
      const account = await accounts.getAccount(user);
      if (!account) throw new UsageError(`no account '${user}'`);
      const plan = config.plans.plans.get(account.plan)!;
      const usage = await new Admission(new KvCounter(nats.counters), SYSTEM_CLOCK).usage(user);
      print(`this minute: ${usage.minute} of ${plan.submitsPerMinute} submissions`);
      print(`this month:  ${usage.month} of ${plan.monthlyQuota} tasks`);
    } else if (command === "history") {
      const limit = Number(option(args, "--limit") ?? "20");
      const page = await new HistoryStore(nats.history, nats.requests, nats.requestBodies).list(need(1, "<user>"), limit, null);
      print(
        table(
          page.items.map((h) => ({
            request_id: h.request_id,
            name: h.name ?? "",
            submitted_at: h.submitted_at,
            state: h.state,
            nodes: h.node_num,
            vehicles: h.vehicle_num,
            objective: h.objective,
            total_cost: h.total_cost ?? "",
          })),
        ),
      );
    } else if (command === "webhook-secret") {
      const secret = generateWebhookSecret();
      await accounts.updateAccount(need(1, "<user>"), (a) => ({ ...a, webhookSecret: secret }));
      print("new webhook signing secret (callbacks are signed with it from now on; shown only now):");
      print(secret);
    } else {
      throw new UsageError(`unknown command '${args.join(" ")}'`);
    }
  } finally {
    await nats?.close();
  }
}

export async function main(): Promise<void> {
  try {
    await runVrpctl(process.argv.slice(2), (line) => process.stdout.write(line + "\n"));
  } catch (err) {
    process.stderr.write(`vrpctl: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof UsageError) process.stderr.write(`\n${USAGE}`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}
