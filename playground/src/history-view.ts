import type { HistoryItem } from "./types.js";

/** The account's planning history; each entry is a button that reopens that task. */
export function renderHistory(list: HTMLElement, items: HistoryItem[], onOpen: (id: string) => void, append = false): void {
  // A keyboard user keeps their place when the list is redrawn under them.
  const focused = list.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.requestId : undefined;
  if (!append) list.replaceChildren();
  if (items.length === 0 && !append) {
    const empty = document.createElement("li");
    empty.textContent = "No tasks yet.";
    list.append(empty);
  }
  for (const item of items) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "history-entry";
    button.dataset.requestId = item.request_id;
    const when = new Date(item.submitted_at).toLocaleString();
    const cost = item.total_cost === null ? "" : ` · cost ${item.total_cost.toFixed(2)}`;
    button.textContent = `${item.name ?? "(unnamed)"} · ${item.node_num} nodes · ${item.state}${cost} · ${when}`;
    button.addEventListener("click", () => onOpen(item.request_id));
    li.append(button);
    list.append(li);
    if (item.request_id === focused) button.focus();
  }
}
