import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { CallbackVerificationError, verifyCallback } from "../src/index.js";

const key = randomBytes(32);
const secret = `whsec_${key.toString("base64")}`;
const body = JSON.stringify({
  success: false,
  request_id: "r1",
  error: "no feasible solution",
  result: null,
  code: "no_feasible_solution",
});
const sign = (id: string, ts: number, text: string, k = key) =>
  `v1,${createHmac("sha256", k).update(`${id}.${ts}.${text}`).digest("base64")}`;
const now = 1_700_000_000;
const headers = (ts = now, signature = sign("msg_1", ts, body)) => ({
  "webhook-id": "msg_1",
  "webhook-timestamp": String(ts),
  "webhook-signature": signature,
});

describe("verifyCallback", () => {
  it("accepts a signed body (headers as a record or as Headers, body as text or bytes) and returns it parsed", () => {
    assert.deepEqual(verifyCallback(secret, { headers: headers(), rawBody: body }, { nowSeconds: now }), JSON.parse(body));
    const other = sign("msg_1", now, body, randomBytes(32));
    const rotated = new Headers({ ...headers(), "webhook-signature": `${other} ${sign("msg_1", now, body)}` });
    assert.equal(verifyCallback(secret, { headers: rotated, rawBody: Buffer.from(body) }, { nowSeconds: now }).request_id, "r1");
  });

  it("refuses a changed body, another secret, an old timestamp and missing headers", () => {
    const refuse = (fn: () => unknown) => assert.throws(fn, CallbackVerificationError);
    refuse(() => verifyCallback(secret, { headers: headers(), rawBody: body.replace("r1", "r2") }, { nowSeconds: now }));
    refuse(() => verifyCallback(`whsec_${randomBytes(32).toString("base64")}`, { headers: headers(), rawBody: body }, { nowSeconds: now }));
    refuse(() => verifyCallback(secret, { headers: headers(now - 301), rawBody: body }, { nowSeconds: now }));
    refuse(() => verifyCallback(secret, { headers: { "webhook-id": "msg_1" }, rawBody: body }, { nowSeconds: now }));
  });
});
