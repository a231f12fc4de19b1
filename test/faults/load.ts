import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Counts callbacks per request_id, as a partner's endpoint on 127.0.0.1 would receive them. */
export class CallbackReceiver {
  readonly hits = new Map<string, number>();
  /** The webhook-id headers each task's callbacks carried (a repeat must carry the same one). */
  readonly webhookIds = new Map<string, Set<string>>();
  private server: Server | null = null;
  url = "";

  /** Listens on `host` (loopback unless a test's services reach it over another interface). */
  async start(host = "127.0.0.1"): Promise<void> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const id = (JSON.parse(body) as { request_id: string }).request_id;
        this.hits.set(id, (this.hits.get(id) ?? 0) + 1);
        const ids = this.webhookIds.get(id) ?? new Set<string>();
        ids.add(String(req.headers["webhook-id"]));
        this.webhookIds.set(id, ids);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, host, r));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}/cb`;
  }

  close(): void {
    this.server?.close();
  }
}

export const TINY_REQUEST = {
  node_num: 4,
  vehicle_num: 1,
  distance_matrix: [
    [0, 3, 4, 5],
    [3, 0, 2, 4],
    [4, 2, 0, 3],
    [5, 4, 3, 0],
  ],
  start_nodes: [0],
  end_nodes: [0],
  node_demands: [0, 1, 2, 1],
  vehicles_capacity: [10],
  time_limit_seconds: 1,
};

export interface LoadReport {
  /** request_id of every submission finally answered 200 (one per submission). */
  accepted: string[];
  /** Every 5xx answer: status, Retry-After, request_id of the body. */
  serverErrors: { status: number; retryAfter: string | null; requestId: string | null }[];
  /** Submissions given up (still refused when the client's patience ran out). */
  givenUp: number;
  /**
   * Attempts without an Idempotency-Key whose answer was lost (connection broken or timed out):
   * the API may or may not have accepted them, and the client cannot know their request_id.
   */
  ambiguous: number;
  /** Submissions sent without an Idempotency-Key (every other one). */
  keyless: number;
  /** Answers by status, retries included; network errors as status 0. */
  answers: Map<number, number>;
  seconds: number;
}

const LANES = 8;
const PATIENCE_MS = 180_000;

/**
 * Submits `tasks` tiny solves with a callback from LANES concurrent clients, spread over the API
 * instances `urls()` returns at each attempt, retried as a careful partner would: after a 503 (its
 * Retry-After, capped at 1 s), a 409 (another attempt still being admitted) or a broken connection
 * (an API instance killed). Even submissions carry their own Idempotency-Key and retry with it;
 * odd ones carry none, so they take the submit's path without a key (the writes sent ahead of the
 * rate check, src/api/handlers/submit-ahead.ts), and a retry is a new submission: a 503 must have
 * left nothing behind, and a lost answer is counted as `ambiguous`.
 * `onProgress(i)` runs (and is awaited) before the i-th submission, so a scenario can inject its
 * fault mid-load or pace the submissions.
 */
export async function submitLoad(
  urls: () => string[],
  headers: Record<string, string>,
  tasks: number,
  callbackUrl: string,
  onProgress: (i: number) => void | Promise<void> = () => undefined,
): Promise<LoadReport> {
  const report: LoadReport = { accepted: [], serverErrors: [], givenUp: 0, ambiguous: 0, keyless: 0, answers: new Map(), seconds: 0 };
  const count = (status: number) => report.answers.set(status, (report.answers.get(status) ?? 0) + 1);
  const body = JSON.stringify({ ...TINY_REQUEST, callback_url: callbackUrl });
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: LANES }, async (_, lane) => {
      while (next < tasks) {
        const i = next++;
        await onProgress(i);
        const key = i % 2 === 0 ? randomUUID() : null;
        if (key === null) report.keyless++;
        const giveUpAt = Date.now() + PATIENCE_MS;
        for (let attempt = 0; ; attempt++) {
          const live = urls();
          const url = live[(i + lane + attempt) % Math.max(1, live.length)];
          let status = 0;
          let wait = 200;
          if (url) {
            try {
              const res = await fetch(`${url}/api/v1/solve`, {
                method: "POST",
                headers: key === null ? headers : { ...headers, "idempotency-key": key },
                body,
                signal: AbortSignal.timeout(30_000),
              });
              status = res.status;
              const json = (await res.json()) as { request_id?: string };
              if (status === 200) {
                count(200);
                report.accepted.push(json.request_id!);
                break;
              }
              if (status >= 500)
                report.serverErrors.push({ status, retryAfter: res.headers.get("retry-after"), requestId: json.request_id ?? null });
              if (status === 503) wait = Math.min(1, Number(res.headers.get("retry-after")) || 1) * 1000;
              else if (status !== 409) throw new Error(`submit answered ${status}: ${JSON.stringify(json)}`);
            } catch (err) {
              if (status !== 0 && status !== 409 && status < 500) throw err;
              if (status === 0 && key === null) report.ambiguous++;
            }
          }
          count(status);
          if (Date.now() > giveUpAt) {
            report.givenUp++;
            break;
          }
          await new Promise((r) => setTimeout(r, wait));
        }
      }
    }),
  );
  report.seconds = (Date.now() - started) / 1000;
  return report;
}
