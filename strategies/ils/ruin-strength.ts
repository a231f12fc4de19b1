import type { RuinStrengthSettings } from "../settings.js";

/**
 * The ruin's size as a multiple of its usual mean, adapted to how often the local search undoes
 * the perturbation: a candidate that comes back at the current solution's cost (the education
 * put the removed customers back where they were) grows it by the settings' growth, any other
 * candidate shrinks it by a quarter of that, so that it settles where about a fifth of the
 * candidates come back, between 1 and the settings' maximum. Without settings it stays 1.
 */
export class RuinStrength {
  private current = 1;

  constructor(private readonly settings: RuinStrengthSettings | null) {}

  get value(): number {
    return this.current;
  }

  outcome(cameBack: boolean): void {
    const s = this.settings;
    if (s === null) return;
    this.current = cameBack ? Math.min(s.max, this.current * (1 + s.growth)) : Math.max(1, this.current / (1 + s.growth / 4));
  }
}
