/** What the pipeline benches send and read: one 3-customer request and the poll answer's fields they use. */

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
