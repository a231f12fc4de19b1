import { expect } from "chai";
import { Rng } from "../../strategies/core/rng.js";
import { RepairRule } from "../../strategies/ils/repair-rule.js";

/** Feeds `n` iterations: each descent examines `descent` customers; every `repairEvery`-th is repaired at `repair`. */
function feed(
  rule: RepairRule,
  n: number,
  o: { descent: number; repair: number; repairEvery: number; bestEvery: number; bestFromRepair: boolean },
) {
  for (let i = 1; i <= n; i++) {
    rule.descended(o.descent, true);
    const repaired = i % o.repairEvery === 0;
    if (repaired) rule.repaired(o.repair);
    rule.outcome(i % o.bestEvery === 0 && repaired === o.bestFromRepair);
  }
}

describe("the repair rule (ils/repair-rule.ts)", () => {
  it("repairs every infeasible outcome before a feasible plan is known, and half of them before any evidence", () => {
    const rule = new RepairRule(new Rng(1));
    expect(rule.share(false)).to.equal(1);
    for (let k = 0; k < 50; k++) expect(rule.repairs(false)).to.equal(true);
    expect(rule.share(true)).to.be.closeTo(0.5, 1e-9);
  });

  it("repairs fewer outcomes when repairs cost work and bring no new best, down to its floor", () => {
    const rule = new RepairRule(new Rng(1));
    feed(rule, 2000, { descent: 100, repair: 400, repairEvery: 2, bestEvery: 50, bestFromRepair: false });
    const share = rule.share(true);
    expect(share).to.be.below(0.1);
    expect(share).to.be.at.least(0.05);
    let repaired = 0;
    for (let k = 0; k < 4000; k++) if (rule.repairs(true)) repaired++;
    expect(repaired / 4000).to.be.closeTo(share, 0.02);
  });

  it("repairs no more than half the outcomes when repairs find the new bests far more cheaply than descents", () => {
    const rule = new RepairRule(new Rng(1));
    feed(rule, 2000, { descent: 100, repair: 100, repairEvery: 2, bestEvery: 20, bestFromRepair: true });
    expect(rule.share(true)).to.equal(0.5);
  });

  it("counts nothing while no feasible plan is known: the share stays where it was", () => {
    const rule = new RepairRule(new Rng(1));
    for (let i = 0; i < 500; i++) {
      rule.descended(100, false);
      rule.repaired(1000);
      rule.outcome(false);
    }
    expect(rule.share(true)).to.be.closeTo(0.5, 1e-9);
  });
});
