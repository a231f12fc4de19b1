/** What the pipeline benches send and read: one 3-customer request and the poll answer's fields they use. */
import http from "node:http";

export const TINY_REQUEST = JSON.stringify({
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
});

export interface Poll {
  success: boolean;
  result: { status?: string; time?: number } | null;
}

/** The p-th percentile of ascending `sorted` (nearest rank). */
export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * A lean HTTP client for the pipeline benches: node:http over kept-alive connections. The bench
 * shares the machine's two cores with the service, so what its client spends the service cannot;
 * node:http costs about half of what fetch() does per request.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
export function requestJson(
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        } catch (err) {
          reject(err as Error);
        }
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
