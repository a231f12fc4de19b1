import type { PlanView } from "./plan-view.js";

/**
 * The customers a plan leaves unserved, listed under the map with their reason and message (the
 * map rings and crosses them); the section stays hidden when the result lists none. A click on an
 * entry inspects that node on the map.
 */
export function renderUnassigned(wrap: HTMLElement, list: HTMLElement, plan: PlanView | null, inspect: (node: number) => void): void {
  list.replaceChildren();
  const entries = [...(plan?.unassigned ?? new Map()).entries()].sort((a, b) => a[0] - b[0]);
  wrap.hidden = entries.length === 0;
  const note = wrap.querySelector<HTMLElement>(".penalties");
  if (note) note.textContent = plan?.skipPenaltyTotal ? `skip penalties in the total cost: ${plan.skipPenaltyTotal.toFixed(2)}` : "";
  for (const [node, { reason, message }] of entries) {
    const item = document.createElement("li");
    item.dataset.node = String(node);
    item.dataset.reason = reason;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Node ${node}`;
    button.addEventListener("click", () => inspect(node));
    const code = document.createElement("code");
    code.textContent = reason;
    item.append(button, " ", code, `: ${message}`);
    list.append(item);
  }
}
