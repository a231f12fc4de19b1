/** The baseline for `npm run bench:api`: a bare Koa hello-world on the same machine. */
import Koa from "koa";

const app = new Koa();
app.use((ctx) => {
  ctx.body = { hello: "world" };
});
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`READY http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}\n`);
});
