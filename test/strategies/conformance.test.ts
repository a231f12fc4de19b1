import { expect } from "chai";
import { sharedSpecBackend } from "../helpers/spec-backend.js";
import { validateSolveRequest } from "../../src/api/validation/validate-solve-request.js";
import { baseRequest, familyRequest, requestFeatures } from "../../src/conformance/families.js";
import { COOPERATIVE_CUSTOMERS, judge, runConformance, type CheckResult, type KitOptions } from "../../src/conformance/kit.js";
import { checkCooperative } from "../../src/conformance/cooperative-check.js";
import { compileRequest } from "../../src/problem/compile-request.js";
import { solverNow } from "../../strategies/core/clock.js";
import { STRATEGY_FEATURES, type Strategy } from "../../strategies/core/strategy.js";
import { STRATEGIES } from "../../strategies/registry.js";

/** Short limits: the kit's checks on tiny instances, so the six built-ins take seconds. */
const FAST: KitOptions = { timeLimitSeconds: 0.3, cancelAfterMs: 100, iterations: 150, cooperativeSeconds: 1.5 };

const cooperativeInstance = () => compileRequest(baseRequest(COOPERATIVE_CUSTOMERS, Math.ceil(COOPERATIVE_CUSTOMERS / 8), 11)).problem;

const failures = (results: CheckResult[]) => results.filter((r) => r.outcome === "fail").map((r) => `${r.check}: ${r.detail}`);

describe("the strategy conformance kit", function () {
  this.timeout(60_000);

  for (const strategy of STRATEGIES) {
    it(`passes on the built-in ${strategy.name}`, () => {
      const results = runConformance(strategy, FAST);
      expect(failures(results)).to.deep.equal([]);
      // Every family is checked, either solved or declined as the strategy's claims say.
      for (const feature of STRATEGY_FEATURES) expect(results.map((r) => r.check)).to.include(`feature ${feature}`);
    });
  }

  it("checks the cooperative large strategy with zero, one and two helpers, items round-tripped through the wire form", () => {
    const large = STRATEGIES.find((s) => s.name === "large")!;
    const check = checkCooperative(large, cooperativeInstance(), 3, 7, judge);
    expect(check.ok, check.detail).to.equal(true);
    const offered = [...check.detail.matchAll(/(\d+) item\(s\) offered/g)].map((m) => Number(m[1]));
    expect(offered, check.detail).to.have.length(2);
    for (const count of offered) expect(count, "items offered with helpers available").to.be.greaterThan(0);
  });

  it("fails a cooperative strategy that offers items with no helper available", () => {
    const large = STRATEGIES.find((s) => s.name === "large")!;
    const eager: Strategy = {
      ...large,
      name: "eager",
      solve(p, budget, initial) {
        const sub = {
          problem: p,
          start: { routes: Array.from({ length: p.vehicleCount }, () => []) },
          strategy: "hgs",
          seed: 1,
          seconds: 0.01,
        };
        budget.helpers?.offer(sub, budget.deadlineMs);
        return large.solve(p, budget, initial);
      },
    };
    const check = checkCooperative(eager, cooperativeInstance(), 0.5, 7, judge);
    expect(check.ok).to.equal(false);
    expect(check.detail).to.include("with no helper available");
  });

  it("generates one valid request per feature family, which uses that feature", async () => {
    const api = await sharedSpecBackend();
    for (const feature of STRATEGY_FEATURES) {
      const request = familyRequest(feature);
      // A travel feature no search claims yet is refused unless pinned to one that does (exact).
      const pin = STRATEGIES.some((s) => s.kind !== "exact" && s.features.includes(feature)) ? {} : { strategy: "exact" };
      const validation = validateSolveRequest(api, { ...request, ...pin }, () => null);
      expect(validation.ok ? [] : validation.issues, feature).to.deep.equal([]);
      expect(requestFeatures(request), feature).to.include(feature);
    }
  });

  /** Claims every feature, and puts every customer on the first vehicle, whatever the rules say. */
  const liar: Strategy = {
    name: "liar",
    kind: "construction",
    features: [...STRATEGY_FEATURES],
    supports: () => ({ ok: true }),
    solve: (p) => ({ routes: Array.from({ length: p.vehicleCount }, (_, v) => (v === 0 ? [...p.customers] : [])) }),
  };

  it("fails a strategy whose solutions break the rules of the features it claims", () => {
    const failed = failures(runConformance(liar, FAST)).map((f) => f.split(":")[0]);
    expect(failed).to.include.members(["feature capacities", "feature time_windows", "feature skills", "feature route_limits"]);
  });

  it("fails a strategy that accepts a feature it does not claim", () => {
    const failed = failures(runConformance({ ...liar, name: "modest", features: ["capacities"] }, FAST));
    expect(failed.find((f) => f.startsWith("feature time_windows:"))).to.include("does not claim, yet supports() accepted it");
  });

  it("fails a search that ignores its time limit and the cancel, and one that reports no progress", () => {
    const base = { kind: "search" as const, features: ["capacities" as const], supports: () => ({ ok: true as const }) };
    const stubborn: Strategy = {
      ...base,
      name: "stubborn",
      solve: (p) => {
        const until = solverNow() + 600;
        while (solverNow() < until);
        return liar.solve(p, undefined as never);
      },
    };
    const failed = failures(runConformance(stubborn, { ...FAST, timeLimitSeconds: 0.1 })).map((f) => f.split(":")[0]);
    expect(failed).to.include.members(["time limit", "cancel", "progress"]);
  });
});
