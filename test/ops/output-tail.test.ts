import { expect } from "chai";
import { OutputTail } from "../../src/infra/service-process.js";

describe("a service process's output tail", () => {
  it("keeps exactly the last characters of everything pushed, across compactions", () => {
    const tail = new OutputTail(50);
    let all = "";
    for (let i = 0; i < 400; i++) {
      const chunk = `line ${i} ${"x".repeat(i % 13)}\n`;
      tail.push(chunk);
      all += chunk;
      if (i % 37 === 0) expect(tail.text()).to.equal(all.slice(-50));
    }
    expect(tail.text()).to.equal(all.slice(-50));
  });

  it("gives everything while less than the limit has been pushed", () => {
    const tail = new OutputTail(1000);
    expect(tail.text()).to.equal("");
    tail.push("ready\n");
    tail.push("more\n");
    expect(tail.text()).to.equal("ready\nmore\n");
  });
});
