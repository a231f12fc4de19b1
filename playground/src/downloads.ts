import type { SolvedResult } from "./types.js";

/** Saves text as a file through a temporary object URL (nothing leaves the browser). */
export function saveFile(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const csvCell = (value: string | number) => (/[",\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value));

/** One line per stop: vehicle, position in the route, node, cumulative load, arrival and departure. */
export function routesCsv(result: SolvedResult): string {
  const lines = [["vehicle", "sequence", "node", "cumulative_load", "arrive", "leave", "route_distance"].join(",")];
  Object.keys(result.routes).forEach((label, k) => {
    (result.routes[label] ?? []).forEach((node, i) => {
      const times = result.time_windows[label]?.[i];
      lines.push([label, i, node, result.loads[label]?.[i] ?? "", times?.[0] ?? "", times?.[1] ?? "", result.distances[k] ?? ""].map(csvCell).join(","));
    });
  });
  return lines.join("\n") + "\n";
}
