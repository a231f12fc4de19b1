import type { ConstraintFields } from "../../src/problem/constraint-fields.js";
import { expect } from "chai";
import { compileRequest } from "../../src/problem/compile-request.js";
import type { SolveRequestInput } from "../../src/problem/request-types.js";
import { buildProblemData } from "../../strategies/search/problem-data.js";
import {
  GRANULARITY,
  ITERATED_SEARCH_ABOVE,
  WINDOWS_GRANULARITY,
  WINDOWS_GENETIC_SECONDS_PER_CUSTOMER,
  CAPACITY_GENETIC_SECONDS_PER_CUSTOMER,
  WINDOWS_ITERATED_ABOVE,
  decompositionSettings,
  perVehicleSettings,
  hgsSettings,
  localSearchSettings,
  neighbourhoodSettings,
  perturbationSettings,
} from "../../strategies/settings.js";
import { Budget } from "../../strategies/core/budget.js";
import { bindingWindowShare } from "../../strategies/core/problem.js";
import { buildModel } from "../../strategies/search/identical-vehicles-model.js";
import { ghLike } from "../../bench/gh-like.js";
import { generateXLike } from "../../bench/x-like-instance.js";
import { fleetInstance, smallRulesInstance } from "./fleet-problems.js";
import { identicalVehiclesMismatch } from "../../strategies/search/identical-vehicles-model.js";

/** The settings that differ by family (strategies/settings.ts): chosen from the problem, replaced only by an override. */
describe("search settings by family (strategies/settings.ts)", () => {
  it("identical-vehicles model: more neighbours, no SWAP*, a search on changed route neighbours for long routes under windows only", () => {
    // GH-like type 2 (long routes) and type 1 (short ones), 400 customers.
    const long = compileRequest(ghLike(3, 2026, [400]).request).problem;
    const short = compileRequest(ghLike(0, 2026, [400]).request).problem;
    expect(neighbourhoodSettings(long, true)).to.deep.equal({ granularity: WINDOWS_GRANULARITY, longWindowRoutes: true });
    expect(neighbourhoodSettings(long, false)).to.deep.equal({ granularity: GRANULARITY, longWindowRoutes: false });
    expect(neighbourhoodSettings(short, true)).to.deep.equal({ granularity: GRANULARITY, longWindowRoutes: false });
    const model = buildModel(long);
    expect(model.ok && model.model.neighbours[model.model.customers[0]!]!.length).to.equal(WINDOWS_GRANULARITY);
    expect(model.ok && model.model.longWindowRoutes).to.equal(true);
    const shortModel = buildModel(short);
    if (!model.ok || !shortModel.ok) throw new Error("identical-vehicles models expected");
    const longSearch = localSearchSettings(model.model, "identicalVehicles");
    expect([longSearch.swapStar, longSearch.localised]).to.deep.equal([null, "changedNeighbours"]);
    const shortSearch = localSearchSettings(shortModel.model, "identicalVehicles");
    expect([shortSearch.swapStar, shortSearch.localised]).to.deep.equal(["allPairs", "promisingCustomers"]);
    // A benchmark's override chooses the localised runs either way, and nothing else.
    const changedOnly = localSearchSettings(shortModel.model, "identicalVehicles", {
      identicalVehicles: { localised: "changedNeighbours" },
    });
    expect(changedOnly).to.deep.equal({ ...shortSearch, localised: "changedNeighbours" });
    const promising = localSearchSettings(model.model, "identicalVehicles", { identicalVehicles: { localised: "promisingCustomers" } });
    expect(promising).to.deep.equal({ ...longSearch, localised: "promisingCustomers" });
    // Optional customers: the localised runs also examine the unserved near a changed customer; required ones have none.
    expect(longSearch.unservedNearChanged).to.equal(false);
    const prized = buildModel(
      compileRequest({ ...ghLike(5, 2053, [400]).request, node_skip_penalties: Array(401).fill(1000) } as SolveRequestInput).problem,
    );
    if (!prized.ok) throw new Error("an identical-vehicles model expected");
    const prizedSearch = localSearchSettings(prized.model, "identicalVehicles");
    expect([prizedSearch.localised, prizedSearch.unservedNearChanged]).to.deep.equal(["changedNeighbours", true]);
    const without = localSearchSettings(prized.model, "identicalVehicles", { identicalVehicles: { unservedNearChanged: false } });
    expect(without).to.deep.equal({ ...prizedSearch, unservedNearChanged: false });
  });

  it("identical vehicles: the iterated search's localised runs leave SWAP* out under binding windows and keep it without", () => {
    const model = (request: SolveRequestInput) => {
      const built = buildModel(compileRequest(request).problem);
      if (!built.ok) throw new Error(built.reason);
      return built.model;
    };
    // GH-like type 1 (short routes, binding windows) and an X-like CVRP.
    const windowed = model(ghLike(1, 2026, [200]).request);
    const capacity = model(generateXLike(0, 2026, 320).request);
    expect(windowed.windows).to.not.equal(null);
    expect(capacity.windows).to.equal(null);
    const windowedSearch = localSearchSettings(windowed, "identicalVehicles");
    expect([windowedSearch.swapStar, windowedSearch.swapStarLocalised]).to.deep.equal(["allPairs", "never"]);
    const capacitySearch = localSearchSettings(capacity, "identicalVehicles");
    expect([capacitySearch.swapStar, capacitySearch.swapStarLocalised]).to.deep.equal(["allPairs", "everyPass"]);
    // A benchmark's override chooses either way, and nothing else.
    const everyPass = localSearchSettings(windowed, "identicalVehicles", { identicalVehicles: { swapStarLocalised: "everyPass" } });
    expect(everyPass).to.deep.equal({ ...windowedSearch, swapStarLocalised: "everyPass" });
    const idle = localSearchSettings(capacity, "identicalVehicles", { identicalVehicles: { swapStarLocalised: "idlePass" } });
    expect(idle).to.deep.equal({ ...capacitySearch, swapStarLocalised: "idlePass" });
  });

  it("identical vehicles: PyVRP's perturbation on long routes where most customers' windows bind, SISR's strings elsewhere", () => {
    const model = (request: SolveRequestInput) => {
      const p = compileRequest(request).problem;
      const built = buildModel(p);
      if (!built.ok) throw new Error(built.reason);
      return { p, m: built.model };
    };
    // GH-like type 2 with every customer windowed, with three quarters and with half; type 1 with every one.
    const everywhere = model(ghLike(5, 2053, [400]).request);
    const most = model(ghLike(4, 2026, [400]).request);
    const half = model(ghLike(4, 2032, [400]).request);
    const short = model(ghLike(1, 2029, [400]).request);
    expect(bindingWindowShare(everywhere.p, 0)).to.equal(1);
    expect(bindingWindowShare(most.p, 0)).to.be.within(0.7, 0.8);
    expect(bindingWindowShare(half.p, 0)).to.be.within(0.4, 0.6);
    expect(bindingWindowShare(short.p, 0)).to.equal(1);
    const neighbourhood = {
      ruin: "neighbourhood",
      stringsShare: 0.1,
      places: "afterNeighbours",
      strength: { growth: 0.05, max: 3 },
      repairOnceFeasible: false,
      repairWithinReach: true,
      repairScope: "nearby",
      history: 300,
      seedRoutes: 0,
      leanRecreate: false,
    };
    expect(perturbationSettings(everywhere.m)).to.deep.equal(neighbourhood);
    expect(perturbationSettings(most.m)).to.deep.equal(neighbourhood);
    expect(perturbationSettings(half.m)).to.deep.equal({
      ruin: "strings",
      stringsShare: 1,
      places: "afterNeighbours",
      strength: { growth: 0.05, max: 3 },
      repairOnceFeasible: true,
      repairWithinReach: true,
      repairScope: "nearby",
      history: null,
      seedRoutes: 0,
      leanRecreate: false,
    });
    expect(short.m.longWindowRoutes).to.equal(false);
    expect(perturbationSettings(short.m)).to.deep.equal({
      ruin: "strings",
      stringsShare: 1,
      places: "anywhere",
      strength: null,
      repairOnceFeasible: true,
      repairWithinReach: true,
      repairScope: "nearby",
      history: null,
      seedRoutes: 0,
      leanRecreate: false,
    });
    // A benchmark's override turns the repairs on or off, and nothing else.
    const noRepair = { identicalVehicles: { repairOnceFeasible: false } };
    expect(perturbationSettings(short.m, noRepair)).to.deep.equal({ ...perturbationSettings(short.m), repairOnceFeasible: false });
    const repair = { identicalVehicles: { repairOnceFeasible: true } };
    expect(perturbationSettings(everywhere.m, repair)).to.deep.equal({ ...neighbourhood, repairOnceFeasible: true });
    const everyOutcome = { identicalVehicles: { repairWithinReach: false } };
    expect(perturbationSettings(short.m, everyOutcome)).to.deep.equal({ ...perturbationSettings(short.m), repairWithinReach: false });
    // Without windows a repair examines the rewritten routes' own customers; an override chooses either scope.
    const cvrp = model({ ...ghLike(1, 2029, [400]).request, node_time_windows: undefined });
    expect(cvrp.m.windows).to.equal(null);
    expect(perturbationSettings(cvrp.m).repairScope).to.equal("routes");
    const nearby = { identicalVehicles: { repairScope: "nearby" as const } };
    expect(perturbationSettings(cvrp.m, nearby)).to.deep.equal({ ...perturbationSettings(cvrp.m), repairScope: "nearby" });
    const routes = { identicalVehicles: { repairScope: "routes" as const } };
    expect(perturbationSettings(short.m, routes)).to.deep.equal({ ...perturbationSettings(short.m), repairScope: "routes" });
    // Optional customers keep SISR's strings, whatever their windows.
    const optional = { ...ghLike(5, 2053, [400]).request, node_skip_penalties: Array(401).fill(1000) } as SolveRequestInput;
    expect(perturbationSettings(model(optional).m).ruin).to.equal("strings");
    // They repair every outcome: a repair may leave stops out, so the reach does not bound it.
    expect(perturbationSettings(model(optional).m).repairWithinReach).to.equal(false);
    // On long routes their ruin opens a route around every fourth served seed; not on short routes, nor without optional customers.
    expect(model(optional).m.longWindowRoutes).to.equal(true);
    expect(perturbationSettings(model(optional).m).seedRoutes).to.equal(4);
    expect(perturbationSettings(model(optional).m, { identicalVehicles: { seedRoutes: 0 } }).seedRoutes).to.equal(0);
    const shortOptional = { ...ghLike(1, 2029, [400]).request, node_skip_penalties: Array(401).fill(1000) } as SolveRequestInput;
    expect(perturbationSettings(model(shortOptional).m).seedRoutes).to.equal(0);
    // Their repairs examine the broken routes' own customers on long routes, those nearby on short ones.
    expect(perturbationSettings(model(optional).m).repairScope).to.equal("routes");
    expect(perturbationSettings(model(shortOptional).m).repairScope).to.equal("nearby");
    // There too the recreate asks optional customers for a margin below their skip price; not on short routes.
    expect(perturbationSettings(model(optional).m).leanRecreate).to.equal(true);
    expect(perturbationSettings(model(optional).m, { identicalVehicles: { leanRecreate: false } }).leanRecreate).to.equal(false);
    expect(perturbationSettings(model(shortOptional).m).leanRecreate).to.equal(false);
    expect(bindingWindowShare(compileRequest({ ...ghLike(5, 2053, [400]).request, node_time_windows: undefined }).problem, 0)).to.equal(0);
  });

  it("general search: SWAP* with skills under hard, soft or several windows, not with breaks nor other rules alone", () => {
    const swapStar = (request: SolveRequestInput) =>
      localSearchSettings(buildProblemData(compileRequest(request).problem), "perVehicle").swapStar;
    expect(swapStar(smallRulesInstance("hard"))).to.equal("changedPairs");
    expect(buildProblemData(compileRequest(smallRulesInstance("soft")).problem).latePenalty, "soft windows").to.be.greaterThan(0);
    expect(swapStar(smallRulesInstance("soft"))).to.equal("changedPairs");
    const hard = smallRulesInstance("hard") as SolveRequestInput & ConstraintFields;
    const sets = hard.node_time_windows!.map(([a, b], i): [number, number][] | null =>
      i === 0 || b! - a! < 4
        ? null
        : [
            [a!, a! + 1],
            [b! - 1, b!],
          ],
    );
    expect(swapStar({ ...hard, node_time_window_sets: sets } as SolveRequestInput), "several windows").to.equal("changedPairs");
    const breaks = hard.start_nodes.map(() => [{ earliest_start: 0, latest_start: 100, duration: 10 }]);
    expect(swapStar({ ...hard, vehicle_breaks: breaks } as SolveRequestInput), "breaks").to.equal(null);
    expect(swapStar({ ...smallRulesInstance("hard"), node_skills: undefined, vehicle_skills: undefined })).to.equal(null);
  });

  it("general search: skills under hard windows try SWAP* in the education after idle passes only, elsewhere after every pass", () => {
    const when = (request: SolveRequestInput, override = {}) =>
      localSearchSettings(buildProblemData(compileRequest(request).problem), "perVehicle", override).swapStarLocalised;
    expect(when(smallRulesInstance("hard"))).to.equal("idlePass");
    expect(when(smallRulesInstance("soft")), "soft windows").to.equal("everyPass");
    expect(when({ ...smallRulesInstance("hard"), node_time_windows: undefined } as SolveRequestInput), "no windows").to.equal("everyPass");
    expect(when(smallRulesInstance("hard"), { perVehicle: { swapStarLocalised: "everyPass" } }), "the bench's override").to.equal(
      "everyPass",
    );
  });

  it("general search: skills grow the ruin on a full fleet, other families keep its size", () => {
    const strength = (request: SolveRequestInput, override = {}) =>
      perVehicleSettings(buildProblemData(compileRequest(request).problem), override).ruinStrength;
    expect(strength(smallRulesInstance("hard"))).to.deep.equal({ growth: 0.05, max: 3 });
    expect(strength({ ...smallRulesInstance("hard"), node_skills: undefined, vehicle_skills: undefined })).to.equal(null);
    expect(strength(smallRulesInstance("hard"), { perVehicle: { ruinStrength: null } }), "the bench's override").to.equal(null);
  });

  it("hgs: the genetic search on small identical-vehicles problems, the iterated one above each size limit", () => {
    expect(hgsSettings(ITERATED_SEARCH_ABOVE)).to.deep.equal({
      capacityMethod: "genetic",
      windowsMethod: "iterated",
      optionalStopsMethod: "iterated",
      offspringSearch: "everyCustomer",
    });
    expect(hgsSettings(ITERATED_SEARCH_ABOVE + 1).capacityMethod).to.equal("iterated");
    expect(hgsSettings(WINDOWS_ITERATED_ABOVE).windowsMethod).to.equal("genetic");
    expect(hgsSettings(WINDOWS_ITERATED_ABOVE + 1).windowsMethod, "Solomon-sized and above").to.equal("iterated");
    expect(hgsSettings(100).windowsMethod).to.equal("iterated");
    expect(hgsSettings(50, { hgs: { optionalStopsMethod: "general", offspringSearch: "changedCustomers" } })).to.deep.equal({
      capacityMethod: "genetic",
      windowsMethod: "iterated",
      optionalStopsMethod: "general",
      offspringSearch: "changedCustomers",
    });
  });

  it("hgs: a budget short for the size sends binding windows to the iterated search; an iteration cap never does", () => {
    const customers = WINDOWS_ITERATED_ABOVE;
    const enough = customers * WINDOWS_GENETIC_SECONDS_PER_CUSTOMER;
    expect(hgsSettings(customers, {}, enough).windowsMethod).to.equal("genetic");
    expect(hgsSettings(customers, {}, enough - 0.01).windowsMethod).to.equal("iterated");
    expect(hgsSettings(customers, {}, null).windowsMethod, "no clock: size alone").to.equal("genetic");
    expect(hgsSettings(customers, { hgs: { windowsMethod: "genetic" } }, 1).windowsMethod, "a benchmark's override").to.equal("genetic");
    const timed = Budget.forSeconds(2);
    expect(timed.givenSeconds).to.be.within(1.9, 2);
    expect(Budget.forSeconds(2, 1, 500).givenSeconds, "iteration cap").to.equal(null);
  });

  it("hgs: a budget short for the size sends capacity problems to the iterated search; the protocol's budgets keep the size rule", () => {
    const customers = 200;
    const enough = customers * CAPACITY_GENETIC_SECONDS_PER_CUSTOMER;
    expect(hgsSettings(customers, {}, enough).capacityMethod).to.equal("genetic");
    expect(hgsSettings(customers, {}, enough - 0.01).capacityMethod).to.equal("iterated");
    expect(hgsSettings(customers, {}, null).capacityMethod, "no clock: size alone").to.equal("genetic");
    expect(hgsSettings(customers, {}, 1, false).capacityMethod, "an infeasible start").to.equal("genetic");
    expect(hgsSettings(ITERATED_SEARCH_ABOVE + 1, {}, 1, false).capacityMethod, "above the size limit").to.equal("iterated");
    expect(hgsSettings(customers, { hgs: { capacityMethod: "genetic" } }, 1).capacityMethod, "a benchmark's override").to.equal("genetic");
    // The protocol: 10 s up to 200 customers, 30 s above, less what compiling and formatting keep back.
    expect(hgsSettings(200, {}, 9.8).capacityMethod, "200 customers at 10 s").to.equal("genetic");
    expect(hgsSettings(ITERATED_SEARCH_ABOVE, {}, 29.8).capacityMethod, "300 customers at 30 s").to.equal("genetic");
  });

  it("general search: mixed fleets get the low threshold, identical vehicles without windows none of the parts", () => {
    const fleet = (types: number) =>
      buildProblemData(
        compileRequest(
          fleetInstance({
            customers: 10,
            types,
            depots: 1,
            mixedEnds: false,
            asymmetric: false,
            cost: true,
            time: "none",
            hours: false,
            speeds: false,
            seed: 5,
          }),
        ).problem,
      );
    expect(perVehicleSettings(fleet(3))).to.deep.equal({
      focus: true,
      feasibleCurrent: true,
      thresholdWeight: 0.2,
      setPartitioning: false,
      ruinStrength: null,
    });
    expect(perVehicleSettings(fleet(1))).to.deep.equal({
      focus: false,
      feasibleCurrent: false,
      thresholdWeight: null,
      setPartitioning: false,
      ruinStrength: null,
    });
    expect(perVehicleSettings(fleet(3), { perVehicle: { poolFamilies: ["types"] } }).setPartitioning, "opted in").to.equal(true);
    expect(perVehicleSettings(fleet(3), { perVehicle: { poolFamilies: ["depots"] } }).setPartitioning, "another family opted in").to.equal(
      false,
    );
  });

  it("decomposition: large groups for identical-vehicles problems, small short ones for others; overrides replace single settings", () => {
    const identicalVehicles = compileRequest(
      fleetInstance({
        customers: 20,
        types: 1,
        depots: 1,
        mixedEnds: false,
        asymmetric: false,
        cost: false,
        time: "none",
        hours: false,
        speeds: false,
        seed: 2,
      }),
    ).problem;
    expect(identicalVehiclesMismatch(identicalVehicles)).to.equal(null);
    const mixed = compileRequest(
      fleetInstance({
        customers: 20,
        types: 3,
        depots: 2,
        mixedEnds: false,
        asymmetric: false,
        cost: true,
        time: "none",
        hours: false,
        speeds: false,
        seed: 2,
      }),
    ).problem;
    expect(decompositionSettings(identicalVehicles, true)).to.deep.equal({
      customers: 500,
      seconds: 0.65,
      rotation: true,
      firstRoundShare: 0,
      squeeze: true,
      startShare: 0.1,
      windowGroups: false,
    });
    expect(decompositionSettings(mixed, false)).to.deep.equal({
      customers: 50,
      seconds: 0.01,
      rotation: true,
      firstRoundShare: 1,
      squeeze: true,
      startShare: 0.1,
      windowGroups: false,
    });
    expect(decompositionSettings(mixed, false, { decomposition: { customers: 80, squeeze: false } })).to.include({
      customers: 80,
      seconds: 0.01,
      squeeze: false,
    });
    // Time-aware groups need binding windows on an identical-vehicles problem, whatever the override asks.
    expect(decompositionSettings(identicalVehicles, true, { decomposition: { windowGroups: true } }).windowGroups).to.equal(false);
  });
});
