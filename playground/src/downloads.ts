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

/**
 * One line per stop: vehicle, position in the route, node, cumulative load, arrival and departure;
 * with pickups or shipments also the load on board after the stop (a last column, only then).
 */
export function routesCsv(result: SolvedResult): string {
  const onBoard = result.loads_on_board;
  const lines = [
    ["vehicle", "sequence", "node", "cumulative_load", "arrive", "leave", "route_distance", ...(onBoard ? ["load_on_board"] : [])].join(
      ",",
    ),
  ];
  Object.keys(result.routes).forEach((label, k) => {
    (result.routes[label] ?? []).forEach((node, i) => {
      const times = result.time_windows[label]?.[i];
      const cells = [label, i, node, result.loads[label]?.[i] ?? "", times?.[0] ?? "", times?.[1] ?? "", result.distances[k] ?? ""];
      if (onBoard) cells.push(onBoard[label]?.[i] ?? "");
      lines.push(cells.map(csvCell).join(","));
    });
  });
  return lines.join("\n") + "\n";
}
