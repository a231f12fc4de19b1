import type { components } from "../../generated/api.js";

/** The wire request as the solver sees it: exactly the OpenAPI document's SolveRequest. */
export type SolveRequestInput = components["schemas"]["SolveRequest"];
