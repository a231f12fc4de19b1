import { startStack } from "/work/wt-fair-queue/test/helpers/stack.js";
import { cvrpRequest } from "/work/wt-fair-queue/test/helpers/requests.js";
describe("smoke", function () {
  this.timeout(60000);
  it("runs", async () => {
    const stack = await startStack({ workers: 1 });
    try {
      const a = await stack.account("smoke-a", "pro");
      const res = await fetch(`${stack.baseUrl}/api/v1/solve`, { method: "POST", headers: { ...a.headers, "content-type": "application/json" }, body: JSON.stringify({ ...cvrpRequest({ customers: 5, vehicles: 1, capacity: 100 }), time_limit_seconds: 1 }) });
      const j = await res.json() as any;
      console.log(res.status, JSON.stringify(j).slice(0, 200));
      await new Promise((r) => setTimeout(r, 4000));
      console.log((await stack.task(j.request_id))?.state);
      console.log(stack.workers[0]!.output().split("\n").slice(-15).join("\n"));
    } finally { await stack.stop(); }
  });
});
