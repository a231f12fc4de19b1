import { readFileSync } from "node:fs";

export interface Plan {
  name: string;
  apiAccess: boolean;
  maxNodes: number;
  maxVehicles: number;
  maxSolveSeconds: number;
  submitsPerMinute: number;
  monthlyQuota: number;
  /** Share of the workers an account on this plan gets against others with queued tasks. */
  weight: number;
  /** Queued (not yet started) tasks one account may have; over it its submits are refused as busy. */
  maxQueued: number;
  /** Workers one account may hold at once. */
  maxSolving: number;
  /** The p95 wait from submit to solve start this plan is meant to keep (the alert's threshold). */
  waitTargetSeconds: number;
}

export interface PlanCatalogue {
  defaultPlan: string;
  marketplacePlan: string;
  plans: ReadonlyMap<string, Plan>;
}

interface PlanFileEntry {
  api_access: boolean;
  max_nodes: number;
  max_vehicles: number;
  max_solve_seconds: number;
  submits_per_minute: number;
  monthly_quota: number;
  weight?: number;
  max_queued?: number;
  max_solving?: number;
  wait_target_seconds?: number;
}

/** What a plan without the fair-share fields gets (a plans file written before they existed). */
export const FAIR_SHARE_DEFAULTS = { weight: 1, maxQueued: 1000, maxSolving: 1000, waitTargetSeconds: 60 } as const;

function positiveInteger(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new Error(`plans file: ${where} must be a positive integer`);
  }
  return value;
}

function optionalPositiveInteger(value: unknown, where: string, fallback: number): number {
  return value === undefined ? fallback : positiveInteger(value, where);
}

/** Reads and checks the plans file; a bad file stops the process at start, not at the first request. */
export function loadPlans(path: string): PlanCatalogue {
  const raw = JSON.parse(readFileSync(path, "utf8")) as {
    default_plan: string;
    marketplace_plan: string;
    plans: Record<string, PlanFileEntry>;
  };
  const plans = new Map<string, Plan>();
  for (const [name, p] of Object.entries(raw.plans)) {
    plans.set(name, {
      name,
      apiAccess: p.api_access === true,
      maxNodes: positiveInteger(p.max_nodes, `${name}.max_nodes`),
      maxVehicles: positiveInteger(p.max_vehicles, `${name}.max_vehicles`),
      maxSolveSeconds: positiveInteger(p.max_solve_seconds, `${name}.max_solve_seconds`),
      submitsPerMinute: positiveInteger(p.submits_per_minute, `${name}.submits_per_minute`),
      monthlyQuota: positiveInteger(p.monthly_quota, `${name}.monthly_quota`),
      weight: optionalPositiveInteger(p.weight, `${name}.weight`, FAIR_SHARE_DEFAULTS.weight),
      maxQueued: optionalPositiveInteger(p.max_queued, `${name}.max_queued`, FAIR_SHARE_DEFAULTS.maxQueued),
      maxSolving: optionalPositiveInteger(p.max_solving, `${name}.max_solving`, FAIR_SHARE_DEFAULTS.maxSolving),
      waitTargetSeconds: optionalPositiveInteger(
        p.wait_target_seconds,
        `${name}.wait_target_seconds`,
        FAIR_SHARE_DEFAULTS.waitTargetSeconds,
      ),
    });
  }
  for (const ref of [raw.default_plan, raw.marketplace_plan]) {
    if (!plans.has(ref)) throw new Error(`plans file: plan '${ref}' is referenced but not defined`);
  }
  return { defaultPlan: raw.default_plan, marketplacePlan: raw.marketplace_plan, plans };
}
