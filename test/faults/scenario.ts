import { checkNothingLost } from "./checks.js";
import type { FaultCluster } from "./cluster.js";
import { submitLoad, type CallbackReceiver, type LoadReport } from "./load.js";

/** Submissions per scenario (`FAULT_TASKS`): bounded, the machine is shared. */
export const TASKS = Number(process.env.FAULT_TASKS ?? 300);

/**
 * A fault scenario's frame, shared by the suite's files: the load runs with `fault` started at a
 * quarter of it; once both are over and the system has recovered by itself, the scenario is
 * checked (checks.ts). `accepted` collects every accepted task of the cluster's scenarios.
 */
export function scenarioRunner(cluster: FaultCluster, callbacks: CallbackReceiver, accepted: Set<string>) {
  return async (label: string, fault: () => Promise<void>, repeatsAllowed = 0): Promise<void> => {
    let faultDone: Promise<void> | null = null;
    const report: LoadReport = await submitLoad(
      () => cluster.apiUrls(),
      cluster.headers,
      TASKS,
      callbacks.url,
      (i) => {
        if (i === Math.floor(TASKS / 4)) faultDone = fault();
      },
    );
    // Counted before anything else can fail, so a later scenario does not take this one's
    // callbacks for callbacks of submits that were never accepted.
    for (const id of report.accepted) accepted.add(id);
    await faultDone;
    try {
      console.log(`      ${label}: ${await checkNothingLost(cluster, report, accepted, callbacks, repeatsAllowed)}`);
    } catch (err) {
      // Said at once: mocha reports failures only once the whole (long) suite is over.
      console.log(`      ${label} FAILED: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
  };
}
