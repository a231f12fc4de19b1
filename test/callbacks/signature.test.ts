import { expect } from "chai";
import { generateWebhookSecret, newWebhookMessageId, signWebhook, verifyWebhook } from "../../src/callbacks/signature.js";

// The published Standard Webhooks test vector: matching it means any Standard Webhooks library
// can verify our callbacks.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

function vectorHeaders(signature = VECTOR.signature, timestamp = String(VECTOR.timestamp)) {
  return { "webhook-id": VECTOR.id, "webhook-timestamp": timestamp, "webhook-signature": signature };
}

describe("callbacks/signature", () => {
  it("reproduces the Standard Webhooks reference signature", () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).to.equal(VECTOR.signature);
  });

  it("verifies the reference vector at its own time", () => {
    expect(verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, 300, VECTOR.timestamp + 10)).to.equal(true);
  });

  it("rejects a changed body, id, secret or signature", () => {
    const now = VECTOR.timestamp;
    expect(verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body + " ", 300, now)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, { ...vectorHeaders(), "webhook-id": "msg_other" }, VECTOR.body, 300, now)).to.equal(false);
    expect(verifyWebhook(generateWebhookSecret(), vectorHeaders(), VECTOR.body, 300, now)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, vectorHeaders("v1,AAAA"), VECTOR.body, 300, now)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, vectorHeaders(VECTOR.signature.replace("v1,", "v2,")), VECTOR.body, 300, now)).to.equal(false);
  });

  it("rejects timestamps outside the tolerance and malformed timestamps", () => {
    expect(verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, 300, VECTOR.timestamp + 301)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, 300, VECTOR.timestamp - 301)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, vectorHeaders(VECTOR.signature, "1614265330.0"), VECTOR.body, 300, VECTOR.timestamp)).to.equal(
      false,
    );
  });

  it("rejects missing headers", () => {
    expect(
      verifyWebhook(VECTOR.secret, { ...vectorHeaders(), "webhook-signature": undefined }, VECTOR.body, 300, VECTOR.timestamp),
    ).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, {}, VECTOR.body, 300, VECTOR.timestamp)).to.equal(false);
  });

  it("accepts one valid signature among several (key rotation) and mixed-case header names", () => {
    const headers = {
      "Webhook-Id": VECTOR.id,
      "Webhook-Timestamp": String(VECTOR.timestamp),
      "Webhook-Signature": `v1,bm9wZQ== ${VECTOR.signature}`,
    };
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.body, 300, VECTOR.timestamp)).to.equal(true);
  });

  it("generates whsec_ secrets with 32 random bytes, and unique message ids", () => {
    const secret = generateWebhookSecret();
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).to.have.length(32);
    expect(generateWebhookSecret()).to.not.equal(secret);
    const id = newWebhookMessageId();
    expect(id).to.match(/^msg_[A-Za-z0-9_-]{22}$/);
    expect(newWebhookMessageId()).to.not.equal(id);
  });

  it("round-trips a freshly generated secret", () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ status: "solved", ünïcode: "ok" });
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": signWebhook(secret, "msg_1", 1700000000, body),
    };
    expect(verifyWebhook(secret, headers, body, 300, 1700000000)).to.equal(true);
  });

  it("refuses an empty secret instead of signing with an empty key", () => {
    expect(() => signWebhook("whsec_", "msg_1", 1, "{}")).to.throw(/non-empty/);
  });
});
