/**
 * `node --import tsx bench/cancel-latency.ts`: how long a cancel takes to stop a solving task
 * (the service promises about a second). A real nats-server, API and one worker; RUNS (default 5)
 * times per strategy it submits examples/city-200.json, waits until a feasible solution is known
 * plus a second, cancels, and times from the cancel's answer to the final event on the event
 * stream. Prints median and max per strategy.
 */
import { readFileSync } from "node:fs";
import { startStack } from "../test/helpers/stack.js";

const RUNS = Number(process.env.RUNS ?? 5);
const request = JSON.parse(readFileSync(new URL("../examples/city-200.json", import.meta.url), "utf8")) as Record<string, unknown>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const stack = await startStack({ workers: 1 });
try {
  const { headers } = await stack.account("bench");
  const h = { ...headers, "content-type": "application/json" };
  const url = (path: string) => `${stack.baseUrl}${path}`;
  console.log(`examples/city-200.json (time limit 60 s), ${RUNS} cancels per strategy, cancel answer -> final event`);
  for (const strategy of ["alns", "hgs"]) {
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const ack = (await (
        await fetch(url("/api/v1/solve"), {
          method: "POST",
          headers: h,
          body: JSON.stringify({ ...request, time_limit_seconds: 60, strategy }),
        })
      ).json()) as { request_id: string };
      const id = ack.request_id;
      for (;;) {
        const poll = (await (await fetch(url(`/api/v1/solve/result/${id}`), { headers: h })).json()) as {
          result: { progress?: { feasible: boolean } };
        };
        if (poll.result.progress?.feasible) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1000));
      const events = await fetch(url(`/api/v1/solve/events/${id}`), { headers: h });
      const reader = events.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      // Read the replayed history first, so the clock starts at the cancel's answer.
      while (!text.includes("event: progress")) text += decoder.decode((await reader.read()).value, { stream: true });
      await fetch(url(`/api/v1/solve/${id}/cancel`), { method: "POST", headers: h });
      const asked = performance.now();
      while (!/event: (solved|failed)/.test(text)) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
      }
      ms.push(performance.now() - asked);
      await reader.cancel();
    }
    console.log(
      `${strategy.padEnd(5)} median ${median(ms).toFixed(0)} ms  max ` +
        `${Math.max(...ms).toFixed(0)} ms  (${ms.map((x) => x.toFixed(0)).join(", ")})`,
    );
  }
} finally {
  await stack.stop();
}
