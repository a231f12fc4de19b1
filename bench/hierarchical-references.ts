/**
 * The literature's hierarchical best known solutions (fewest vehicles, then distance) of the
 * shared Solomon and GH200 sets, comparable with a plan on the request's own matrix. The
 * manifest's `alt_bks` values are in double precision while the requests are `trunc1`, so:
 * GH200's stored routes (`raw/GH200/<name>.hierarchical.sol`) are re-evaluated on the request's
 * matrix; Solomon has values only, so there the plan's routes are measured in double precision
 * too, from the coordinates of `raw/Solomon/<name>.txt`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SolveRequestInput } from "../src/problem/request-types.js";

export interface AltBks {
  bks: number;
  bks_objective: string;
  vehicles_used?: number;
}

/** What a plan is compared with: the reference's vehicles and distance, and how to measure a plan alike. */
export interface HierarchicalReference {
  vehicles: number;
  distance: number;
  /** Where the distance comes from: `sol on trunc1` or `value, real`. */
  basis: string;
  /** A plan's distance measured as the reference's (its routes as customer lists). */
  measure(routes: number[][]): number;
}

/** The hierarchical alt_bks entry of a manifest entry, or null. */
export function hierarchicalAlt(alts: AltBks[] | undefined): AltBks | null {
  return alts?.find((a) => a.bks_objective === "hierarchical") ?? null;
}

/** Route length on a distance function, depot 0 at both ends. */
function routeLength(route: number[], d: (i: number, j: number) => number): number {
  let total = 0;
  let at = 0;
  for (const c of route) {
    total += d(at, c);
    at = c;
  }
  return total + (route.length > 0 ? d(at, 0) : 0);
}

/** The routes of a SINTEF solution file (`Route k : a b c`), customers numbered as in the request. */
export function solRoutes(text: string): number[][] {
  return [...text.matchAll(/^Route\s+\d+\s*:\s*(.*)$/gm)].map((m) => m[1]!.trim().split(/\s+/).filter(Boolean).map(Number));
}

/** Coordinates of a Solomon / Gehring-Homberger text file, by customer number. */
export function solomonCoordinates(text: string): [number, number][] {
  const rows = text
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((row) => row.length === 7 && row.every(Number.isFinite));
  return rows.map((row) => [row[1]!, row[2]!]);
}

/** The reference of one instance of the Solomon or GH200 set (null when the folder lacks it). */
export function hierarchicalReference(
  folder: string,
  set: string,
  name: string,
  alt: AltBks,
  request: SolveRequestInput,
): HierarchicalReference | null {
  const matrix = (i: number, j: number) => request.distance_matrix[i]![j]!;
  const sol = join(folder, "raw", set, `${name.toLowerCase()}.hierarchical.sol`);
  if (existsSync(sol)) {
    const routes = solRoutes(readFileSync(sol, "utf8"));
    const distance = routes.reduce((sum, r) => sum + routeLength(r, matrix), 0);
    return {
      vehicles: routes.length,
      distance,
      basis: "sol on trunc1",
      measure: (rs) => rs.reduce((s, r) => s + routeLength(r, matrix), 0),
    };
  }
  const raw = join(folder, "raw", set, `${name}.txt`);
  if (!existsSync(raw) || alt.vehicles_used === undefined) return null;
  const xy = solomonCoordinates(readFileSync(raw, "utf8"));
  const real = (i: number, j: number) => Math.hypot(xy[i]![0] - xy[j]![0], xy[i]![1] - xy[j]![1]);
  return {
    vehicles: alt.vehicles_used,
    distance: alt.bks,
    basis: "value, real",
    measure: (rs) => rs.reduce((s, r) => s + routeLength(r, real), 0),
  };
}
