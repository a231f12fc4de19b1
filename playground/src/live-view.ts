import type { LiveState } from "./follow.js";

/**
 * The progress panel: phase, queue depth, elapsed time against the time limit, best cost so far
 * and a log of every state change. Between updates the elapsed clock keeps ticking locally.
 */
export class LiveView {
  private timer: number | undefined;
  private submittedAt = 0;
  private lastPhase = "";
  private state: LiveState | null = null;

  constructor(
    private facts: HTMLElement,
    private bar: HTMLProgressElement,
    private log: HTMLElement,
    private requestTimeLimit: () => number | null,
  ) {}

  start(requestId: string): void {
    this.stop();
    this.log.replaceChildren();
    this.submittedAt = performance.now();
    this.lastPhase = "queued";
    this.state = { transport: "polling", phase: "queued", queueDepth: null, progress: null };
    this.entry(`accepted as ${requestId}, phase queued`);
    this.timer = window.setInterval(() => this.paint(), 500);
    this.paint(requestId);
  }

  update(state: LiveState): void {
    const p = state.progress;
    const detail = [
      state.queueDepth !== null ? `${state.queueDepth} waiting in the queue` : "",
      p?.best_cost != null ? `best cost ${p.best_cost.toFixed(2)}` : "",
      p?.elapsed_seconds != null ? `${p.elapsed_seconds.toFixed(1)} s` : "",
    ]
      .filter(Boolean)
      .join(", ");
    if (state.phase !== this.lastPhase || detail)
      this.entry(`${state.transport === "events" ? "event" : "poll"}: ${state.phase}${detail ? ` (${detail})` : ""}`);
    this.lastPhase = state.phase;
    this.state = state;
    this.paint();
  }

  finish(text: string): void {
    this.stop();
    if (this.state) this.state = { ...this.state, phase: (text.split(" ")[0] ?? text).replace(/:$/, "") };
    this.entry(text);
    this.paint();
    this.bar.value = this.bar.max;
  }

  /** Nothing to follow (a submit was refused): no facts, log or bar of an earlier task stay up. */
  clear(): void {
    this.stop();
    this.state = null;
    this.lastPhase = "";
    this.log.replaceChildren();
    this.facts.replaceChildren();
    delete this.facts.dataset.requestId;
    delete this.facts.dataset.phase;
    delete this.facts.dataset.transport;
    this.bar.removeAttribute("value");
    this.bar.value = 0;
  }

  stop(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
  }

  private entry(text: string): void {
    const li = document.createElement("li");
    li.textContent = `${new Date().toLocaleTimeString()} ${text}`;
    this.log.append(li);
    li.scrollIntoView({ block: "nearest" });
  }

  private paint(requestId?: string): void {
    const s = this.state;
    if (!s) return;
    const p = s.progress;
    const limit = p?.time_limit_seconds ?? this.requestTimeLimit();
    // The service's own solve clock when it reports progress; else the time since the submit.
    const elapsed = p?.elapsed_seconds ?? (performance.now() - this.submittedAt) / 1000;
    const facts: [string, string][] = [
      ["Following by", s.transport === "events" ? "event stream" : "polling (2 s, 3 s, then every 5 s)"],
      ["Phase", s.phase],
      ["Queue depth", s.queueDepth === null ? "–" : String(s.queueDepth)],
      [
        p?.elapsed_seconds != null ? "Solving for / limit" : "Since submit / limit",
        `${elapsed.toFixed(1)} s / ${limit === null ? "plan default" : `${limit} s`}`,
      ],
      ["Best cost so far", p?.best_cost != null ? p.best_cost.toFixed(2) : "–"],
    ];
    if (p?.improvements != null || p?.iterations != null)
      facts.push(["Improvements / iterations", `${p.improvements ?? "–"} / ${p.iterations ?? "–"}`]);
    if (p?.strategy) facts.push(["Strategy", p.strategy]);
    if (requestId) this.facts.dataset.requestId = requestId;
    this.facts.dataset.phase = s.phase;
    this.facts.dataset.transport = s.transport;
    this.facts.replaceChildren(
      ...facts.flatMap(([k, v]) => {
        const dt = document.createElement("dt");
        dt.textContent = k;
        const dd = document.createElement("dd");
        dd.textContent = v;
        return [dt, dd];
      }),
    );
    this.bar.max = limit ?? 1;
    this.bar.value = Math.min(elapsed, this.bar.max);
  }
}
