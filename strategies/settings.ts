import type { DecompositionOverride, DecompositionSettings } from "./settings/decomposition.js";
import type { LocalSearchOverride } from "./settings/local-search.js";
import type { HgsSettings, MethodsOverride } from "./settings/methods.js";
import type { PerVehicleOverride, PerVehicleSettings } from "./settings/per-vehicle.js";
import type { PerturbationOverride } from "./settings/perturbation.js";
import type { NeighbourhoodSettings } from "./settings/neighbourhood.js";

/**
 * Every search setting that differs by problem family, and why, in one place (strategies/settings/, a
 * module per method). Each method reads its own section, chosen from the features of the model it builds:
 * the identical-vehicles model from the compiled problem (neighbourhoodSettings), hgs from its
 * identical-vehicles model (hgsSettings), the general iterated local search from its problem data
 * (perVehicleSettings), the decomposition from the compiled problem (decompositionSettings). The service
 * never overrides them; benchmarks may, through a SettingsOverride on the Budget, to compare settings on
 * the same problems. The figures behind each choice are in BENCHMARKS.md.
 */
export interface SearchSettings {
  neighbourhood: NeighbourhoodSettings;
  hgs: HgsSettings;
  perVehicle: PerVehicleSettings;
  decomposition: DecompositionSettings;
}

/** What a benchmark may change (each field replaces the family's choice); the service passes none. */
export type SettingsOverride = MethodsOverride &
  PerturbationOverride &
  PerVehicleOverride &
  LocalSearchOverride &
  DecompositionOverride & {
    /** Told what the decomposition's route elimination tried, one line each (for studying it). */
    trace?: (line: string) => void;
  };

export * from "./settings/decomposition.js";
export * from "./settings/local-search.js";
export * from "./settings/methods.js";
export * from "./settings/neighbourhood.js";
export * from "./settings/per-vehicle.js";
export * from "./settings/perturbation.js";
