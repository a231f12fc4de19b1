/**
 * Prices PyVRP's routes with our evaluator for pyvrp-travel.py: one JSON line, the Verdict of
 * pyvrp-routes.ts (total_cost, feasible, error).
 *
 * `node --import tsx bench/peers/rescore-pyvrp.ts REQUEST.json SOLUTION.json` (SOLUTION: the
 * PyvrpSolution that pyvrp-travel.py writes)
 */
import { readFileSync } from "node:fs";
import { evaluateRoutes, initialRoutesFromPyvrp, type PyvrpSolution, type Verdict } from "./pyvrp-routes.js";

const [requestFile, solutionFile] = process.argv.slice(2);
if (!requestFile || !solutionFile) {
  console.error("usage: rescore-pyvrp.ts REQUEST.json SOLUTION.json");
  process.exit(2);
}
const request = JSON.parse(readFileSync(requestFile, "utf8"));
const solution = JSON.parse(readFileSync(solutionFile, "utf8")) as PyvrpSolution;
let verdict: Verdict;
try {
  verdict = evaluateRoutes(request, initialRoutesFromPyvrp(solution, request.vehicle_num));
} catch (error) {
  verdict = { total_cost: null, feasible: false, error: error instanceof Error ? error.message : String(error) };
}
console.log(JSON.stringify(verdict));
