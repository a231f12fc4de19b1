import { expect } from "chai";
import { settingsFromEnv } from "../../bench/settings-env.js";

/** The benchmarks' environment switches become the override a benchmark passes to every solve. */
describe("bench/settings-env.ts", () => {
  it("asks for nothing when no switch is set, or a switch has a value it does not know", () => {
    expect(settingsFromEnv({})).to.deep.equal({});
    expect(
      settingsFromEnv({
        HGS_WINDOWS_METHOD: "fast",
        LARGE_SUB_CUSTOMERS: "many",
        LARGE_SUB_SECONDS: "-1",
        LARGE_SQUEEZE: "1",
        SOLVER_GENERAL_FOCUS: "1",
        SOLVER_ILS_LOCALISED: "everything",
        SOLVER_ILS_REPAIR: "yes",
      }),
    ).to.deep.equal({});
  });

  it("maps hgs's method: general also for optional stops", () => {
    expect(settingsFromEnv({ HGS_WINDOWS_METHOD: "genetic" })).to.deep.equal({ hgs: { windowsMethod: "genetic" } });
    expect(settingsFromEnv({ HGS_WINDOWS_METHOD: "general" })).to.deep.equal({
      hgs: { windowsMethod: "general", optionalStopsMethod: "general" },
    });
    expect(settingsFromEnv({ HGS_CAPACITY_METHOD: "iterated" })).to.deep.equal({ hgs: { capacityMethod: "iterated" } });
    expect(settingsFromEnv({ HGS_WINDOWS_METHOD: "genetic", HGS_CAPACITY_METHOD: "genetic" })).to.deep.equal({
      hgs: { windowsMethod: "genetic", capacityMethod: "genetic" },
    });
    expect(settingsFromEnv({ HGS_CAPACITY_METHOD: "general" }), "capacity problems have no general method here").to.deep.equal({});
  });

  it("maps the general search's switches", () => {
    expect(settingsFromEnv({ SOLVER_GENERAL_FOCUS: "0" })).to.deep.equal({
      perVehicle: { focus: false, feasibleCurrent: false, thresholdWeight: null },
    });
    expect(settingsFromEnv({ SOLVER_POOL_FAMILIES: "skills, depots,unknown" })).to.deep.equal({
      perVehicle: { poolFamilies: ["skills", "depots"] },
    });
    expect(settingsFromEnv({ SOLVER_EMPTY_TYPES: "cheapest" })).to.deep.equal({ perVehicle: { emptyTypeOrder: "cheapest" } });
    expect(settingsFromEnv({ SOLVER_EMPTY_TYPES: "random" })).to.deep.equal({});
    expect(settingsFromEnv({ SOLVER_GENERAL_RUIN_STRENGTH: "3" })).to.deep.equal({
      perVehicle: { ruinStrength: { growth: 0.05, max: 3 } },
    });
    expect(settingsFromEnv({ SOLVER_GENERAL_RUIN_STRENGTH: "0" })).to.deep.equal({ perVehicle: { ruinStrength: null } });
    expect(settingsFromEnv({ SOLVER_GENERAL_RUIN_STRENGTH: "big" })).to.deep.equal({});
    expect(settingsFromEnv({ SOLVER_GENERAL_FEASIBLE_CURRENT: "0" })).to.deep.equal({ perVehicle: { feasibleCurrent: false } });
    expect(settingsFromEnv({ SOLVER_GENERAL_FEASIBLE_CURRENT: "no" })).to.deep.equal({});
  });

  it("maps the identical-vehicles iterated search's switches", () => {
    expect(settingsFromEnv({ SOLVER_ILS_LOCALISED: "changedNeighbours", SOLVER_ILS_REPAIR: "0" })).to.deep.equal({
      identicalVehicles: { localised: "changedNeighbours", repairOnceFeasible: false },
    });
    expect(settingsFromEnv({ SOLVER_ILS_REPAIR: "1" })).to.deep.equal({ identicalVehicles: { repairOnceFeasible: true } });
    expect(settingsFromEnv({ SOLVER_ILS_REPAIR: "byYield" })).to.deep.equal({ identicalVehicles: { repairOnceFeasible: "byYield" } });
    expect(settingsFromEnv({ SOLVER_ILS_REPAIR_REACH: "0" })).to.deep.equal({ identicalVehicles: { repairWithinReach: false } });
    expect(settingsFromEnv({ SOLVER_ILS_REPAIR_REACH: "1" })).to.deep.equal({ identicalVehicles: { repairWithinReach: true } });
    expect(settingsFromEnv({ SOLVER_ILS_REPAIR_REACH: "yes" })).to.deep.equal({});
    expect(settingsFromEnv({ SOLVER_ILS_UNSERVED: "0" })).to.deep.equal({ identicalVehicles: { unservedNearChanged: false } });
    expect(settingsFromEnv({ SOLVER_ILS_UNSERVED: "1" })).to.deep.equal({ identicalVehicles: { unservedNearChanged: true } });
    expect(settingsFromEnv({ SOLVER_ILS_UNSERVED: "on" })).to.deep.equal({});
    expect(settingsFromEnv({ SOLVER_ILS_SEED_ROUTES: "0" })).to.deep.equal({ identicalVehicles: { seedRoutes: 0 } });
    expect(settingsFromEnv({ SOLVER_ILS_SEED_ROUTES: "8" })).to.deep.equal({ identicalVehicles: { seedRoutes: 8 } });
    expect(settingsFromEnv({ SOLVER_ILS_SEED_ROUTES: "2.5" })).to.deep.equal({});
    expect(settingsFromEnv({ SOLVER_ILS_SEED_ROUTES: "-1" })).to.deep.equal({});
    expect(settingsFromEnv({ SOLVER_ILS_LEAN_RECREATE: "0" })).to.deep.equal({ identicalVehicles: { leanRecreate: false } });
    expect(settingsFromEnv({ SOLVER_ILS_LEAN_RECREATE: "1" })).to.deep.equal({ identicalVehicles: { leanRecreate: true } });
    expect(settingsFromEnv({ SOLVER_ILS_LEAN_RECREATE: "yes" })).to.deep.equal({});
  });

  it("maps the decomposition's switches", () => {
    const env = {
      LARGE_SUB_CUSTOMERS: "199.6",
      LARGE_SUB_SECONDS: "0.2",
      LARGE_FIRST_ROUND: "0.3",
      LARGE_START_SHARE: "0",
      LARGE_ROTATION: "0",
      LARGE_SQUEEZE: "0",
      LARGE_WINDOW_GROUPS: "1",
    };
    expect(settingsFromEnv(env)).to.deep.equal({
      decomposition: {
        customers: 200,
        seconds: 0.2,
        firstRoundShare: 0.3,
        startShare: 0,
        rotation: false,
        squeeze: false,
        windowGroups: true,
      },
    });
    expect(settingsFromEnv({ LARGE_SQUEEZE_LOG: "1" }).trace).to.be.a("function");
  });
});
