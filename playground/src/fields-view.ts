import type { ValidationIssue } from "./types.js";

/**
 * The request's top-level fields as a list, each with room for the service's 422 messages: an
 * issue's `loc` is ["body", field, index...], so its `msg` is shown next to that field (issues
 * about the whole body next to "request"). The rows are also a quick summary of the request.
 */
export function renderFields(list: HTMLElement, request: Record<string, unknown> | null, issues: ValidationIssue[] = []): void {
  list.replaceChildren();
  const byField = new Map<string, ValidationIssue[]>();
  for (const issue of issues) {
    const field = issue.loc[0] === "body" && issue.loc.length > 1 ? issue.loc[1]! : "request";
    byField.set(field, [...(byField.get(field) ?? []), issue]);
  }
  const names = [...(byField.has("request") ? ["request"] : []), ...Object.keys(request ?? {})];
  for (const field of byField.keys()) if (!names.includes(field)) names.push(field);
  for (const name of names) {
    const row = document.createElement("li");
    row.className = "field-row";
    row.dataset.field = name;
    const label = document.createElement("code");
    label.textContent = name;
    const value = document.createElement("span");
    value.className = "field-value";
    value.textContent = name === "request" ? "(whole body)" : request && name in request ? summarise(request[name]) : "(missing)";
    row.append(label, value);
    const fieldIssues = byField.get(name) ?? [];
    if (fieldIssues.length > 0) {
      row.classList.add("has-error");
      const error = document.createElement("span");
      error.className = "field-error";
      error.id = `field-error-${name}`;
      error.textContent = fieldIssues.map((i) => (i.loc.length > 2 ? `[${i.loc.slice(2).join("][")}] ${i.msg}` : i.msg)).join("; ");
      row.append(error);
    }
    list.append(row);
  }
}

function summarise(value: unknown): string {
  if (Array.isArray(value)) {
    const preview = JSON.stringify(value.slice(0, 4));
    return (
      `${value.length} item${value.length === 1 ? "" : "s"}: ` +
      `${preview.length > 60 ? preview.slice(0, 57) + "…" : preview}${value.length > 4 ? " …" : ""}`
    );
  }
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? text.slice(0, 57) + "…" : text;
}
