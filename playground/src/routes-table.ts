import type { PlanView } from "./plan-view.js";
import { minutesToClock } from "./plan-view.js";
import type { SolvedResult } from "./types.js";
import { routeRuleLines, type VisitRulesView } from "./visit-rules-view.js";

const num = (x: number, digits = 1) => x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The route list: one row per used vehicle, the totals, and the result's own summary figures. */
export function renderRoutesTable(
  table: HTMLTableElement,
  summary: HTMLElement,
  plan: PlanView,
  result: SolvedResult,
  base: number,
  rules: VisitRulesView | null = null,
): void {
  const trips = plan.vehicles.some((v) => v.trips > 1);
  // Balanced workloads: each route's workload in the request's measure, last, only when the result has the term.
  const balanced = result.balance_cost !== undefined;
  const workload = (label: string) => result.route_details?.[label]?.balance_measure ?? 0;
  const head = [
    "Vehicle",
    "Stops",
    ...(trips ? ["Trips"] : []),
    "Distance",
    "Cost",
    "Load / capacity",
    ...(plan.timed ? ["Departs", "Returns", "Late (min)"] : []),
    ...(balanced ? ["Workload"] : []),
  ];
  const rows = plan.vehicles.map((v) => [
    v.label,
    String(v.customers),
    ...(trips ? [String(v.trips)] : []),
    num(v.distance),
    num(v.cost, 2),
    v.trips > 1 ? `${v.load} in ${v.trips} trips (fullest ${v.peakTripLoad}) / ${v.capacity}` : `${v.load} / ${v.capacity}`,
    ...(plan.timed
      ? [v.depart === null ? "" : minutesToClock(v.depart, base), v.finish === null ? "" : minutesToClock(v.finish, base), num(v.lateness)]
      : []),
    ...(balanced ? [num(workload(v.label))] : []),
  ]);
  const totals = [
    "Total",
    String(plan.totals.customers),
    ...(trips ? [String(plan.vehicles.reduce((a, v) => a + v.trips, 0))] : []),
    num(plan.totals.distance),
    num(plan.totals.cost, 2),
    String(plan.totals.load),
    ...(plan.timed ? ["", "", num(plan.totals.lateness)] : []),
    ...(balanced ? [`largest ${num(Math.max(0, ...plan.vehicles.map((v) => workload(v.label))))}`] : []),
  ];
  table.replaceChildren();
  const thead = table.createTHead().insertRow();
  for (const h of head) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    thead.append(th);
  }
  // The visit rules (ride times, goods, groups), last, only when the request has one.
  if (rules) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = "Visit rules";
    thead.append(th);
  }
  const body = table.createTBody();
  plan.vehicles.forEach((v, i) => {
    const tr = body.insertRow();
    tr.dataset.vehicle = v.label;
    rows[i]!.forEach((cell, c) => {
      const td = tr.insertCell();
      td.textContent = cell;
      if (c === 0) td.style.borderLeft = `6px solid ${v.color}`;
    });
    if (rules) tr.insertCell().append(...ruleLineElements(routeRuleLines(rules, v)));
  });
  const foot = table.createTFoot().insertRow();
  for (const cell of totals) foot.insertCell().textContent = cell;
  if (rules) foot.insertCell().textContent = ruleTotals(rules);

  const facts: [string, string][] = [
    ["Total cost (objective)", num(result.total_cost, 2)],
    ["Total distance", num(result.total_distance ?? plan.totals.distance)],
    ["Vehicles used", String(plan.vehicles.length)],
    ["Strategy", result.strategy ?? "(not reported)"],
    ["Solve time", `${num(result.time, 2)} s`],
  ];
  if (balanced) facts.push(["Balance term", num(result.balance_cost!, 2)]);
  if (result.lateness_minutes)
    facts.push(["Lateness", `${num(result.lateness_minutes)} min (penalty ${num(result.lateness_penalty ?? 0, 2)})`]);
  summary.replaceChildren(
    ...facts.flatMap(([k, v]) => {
      const dt = document.createElement("dt");
      dt.textContent = k;
      const dd = document.createElement("dd");
      dd.textContent = v;
      dd.dataset.fact = k;
      return [dt, dd];
    }),
  );
  for (const warning of result.warnings ?? []) {
    const dd = document.createElement("dd");
    dd.className = "warning";
    dd.textContent = `Warning: ${warning}`;
    summary.append(dd);
  }
}

/** One block per line; a broken rule is marked (class `rule-breach`) besides saying so in words. */
function ruleLineElements(lines: { text: string; breach: boolean }[]): HTMLElement[] {
  return lines.map((line) => {
    const div = document.createElement("div");
    div.className = line.breach ? "rule-line rule-breach" : "rule-line";
    div.textContent = line.text;
    return div;
  });
}

function ruleTotals(rules: VisitRulesView): string {
  const over = rules.rides.filter((r) => r.breach).length;
  const split = rules.groups.filter((g) => g.split).length;
  const parts = [
    ...(rules.rides.length > 0 ? [`${rules.rides.length - over} of ${rules.rides.length} rides within limit`] : []),
    ...(rules.conflicts.length > 0 ? [`${rules.conflicts.length} goods conflict(s)`] : []),
    ...(rules.groups.length > 0 ? [`${rules.groups.length - split} of ${rules.groups.length} groups together`] : []),
  ];
  return parts.join("; ");
}
