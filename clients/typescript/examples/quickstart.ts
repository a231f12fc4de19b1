import { readFileSync } from "node:fs";
import { VrpClient, isApiError } from "vrp-solve-client";

const client = new VrpClient({
  baseUrl: process.env.VRP_URL ?? "http://127.0.0.1:8080",
  credentials: { user: process.env.VRP_USER!, apiKey: process.env.VRP_KEY! },
});
try {
  const problem = JSON.parse(readFileSync(process.argv[2] ?? "examples/small-cvrp.json", "utf8"));
  const done = await client.solve(problem, { timeoutMs: 120_000 });
  if (done.success) console.log("total cost", done.result.total_cost, done.result.routes);
  else console.log("no solution:", done.code, done.error);
} catch (err) {
  if (isApiError(err) && err.status === 422) console.error(err.body.detail);
  else throw err;
}
