/**
 * Type test, checked by `tsc` in the build (never run): the constraint fields of optional stops,
 * skills, shifts and route limits, and the result's `unassigned`, are typed. Each
 * `@ts-expect-error` line must fail to compile, or the build fails ("unused directive").
 */
import type { ReasonEvidence, SolveRequest, SolvedResult, UnassignedNode, UnassignedReason } from "../src/index.js";

export const request: SolveRequest = {
  node_num: 3,
  vehicle_num: 2,
  distance_matrix: [
    [0, 1, 2],
    [1, 0, 1],
    [2, 1, 0],
  ],
  start_nodes: [0, 0],
  end_nodes: [0, 0],
  node_demands: [0, 1, 1],
  vehicles_capacity: [5, 5],
  node_skip_penalties: [null, 12.5, null],
  allow_unassigned: true,
  node_skills: [null, ["refrigerated"], []],
  vehicle_skills: [["refrigerated"], null],
  vehicle_time_windows: [[0, 480], null],
  vehicle_max_distance: [250, null],
  vehicle_max_working_hours: [8, null],
  vehicle_max_stops: [20, null],
};

// @ts-expect-error skills are strings
export const numericSkills: SolveRequest["node_skills"] = [[1]];
// @ts-expect-error allow_unassigned is a boolean
export const yes: SolveRequest["allow_unassigned"] = "yes";

export function explain(result: SolvedResult): string[] {
  const skipped: number = result.skip_penalty_total ?? 0;
  return (result.unassigned ?? []).map((u: UnassignedNode) => {
    const reason: UnassignedReason = u.reason;
    const evidence: ReasonEvidence = u.evidence;
    const vehicle: string | undefined = evidence.vehicle;
    const skills: string[] | undefined = evidence.missing_skills;
    return `${u.node} ${reason} ${u.message} ${vehicle} ${skills?.join()} ${evidence.skip_penalty} ${skipped}`;
  });
}

// @ts-expect-error not a reason code of the document
export const unknownReason: UnassignedReason = "too_far";
