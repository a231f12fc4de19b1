// Code run inside the page (page.evaluate) is typed against the browser's DOM.
/// <reference lib="dom" />
import type { Page } from "playwright-core";

/** How many canvas pixels have each colour (within ±3 per channel: stroke cores, not edges). */
export async function canvasColorCounts(page: Page, selector: string, colors: string[]): Promise<Record<string, number>> {
  return page.evaluate(
    ({ selector, colors }) => {
      const canvas = document.querySelector(selector) as HTMLCanvasElement;
      const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      const targets = colors.map((c) => [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)]);
      const counts: Record<string, number> = Object.fromEntries(colors.map((c) => [c, 0]));
      for (let i = 0; i < data.length; i += 4) {
        targets.forEach((t, k) => {
          if (Math.abs(data[i]! - t[0]!) <= 3 && Math.abs(data[i + 1]! - t[1]!) <= 3 && Math.abs(data[i + 2]! - t[2]!) <= 3)
            counts[colors[k]!]!++;
        });
      }
      return counts;
    },
    { selector, colors },
  );
}

export interface MapMeasurement {
  renderMedianMs: number;
  renderP95Ms: number;
  hoverHandlerMedianMs: number;
  hoverHandlerP95Ms: number;
  hoverFrameMedianMs: number;
  hoverFrameP95Ms: number;
  samples: number;
  hits: number;
}

/**
 * In the page: 30 full map renders (what zoom, pan and resize cost: scene, arrows, hit grid), then
 * 100 pointer moves across the map, each timed twice: the synchronous handler (hit test,
 * highlight, tooltip, rasterised) and from dispatch to the next animation frame (when the change can be shown;
 * includes waiting for the frame clock, up to ~16.7 ms at 60 Hz).
 */
export async function measureMap(page: Page, selector: string): Promise<MapMeasurement> {
  // tsx compiles this file with esbuild's keepNames, whose __name helper the page does not have.
  await page.evaluate("window.__name = window.__name || ((f) => f)");
  return page.evaluate(async (selector) => {
    const api = (window as unknown as { vrpPlayground: { renderMap(): number } }).vrpPlayground;
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
    const renders: number[] = [];
    const canvas = document.querySelector(selector) as HTMLCanvasElement;
    const visible = canvas.getContext("2d")!;
    // Reading one pixel back forces Chromium to rasterise the deferred drawing, so the figure
    // includes the pixels, not only the recorded commands.
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      api.renderMap();
      visible.getImageData(0, 0, 1, 1);
      renders.push(performance.now() - started);
    }
    const rect = canvas.getBoundingClientRect();
    const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const handlers: number[] = [];
    const frames: number[] = [];
    let hits = 0;
    for (let i = 0; i < 100; i++) {
      await nextFrame();
      const x = rect.left + (((i * 37) % 100) / 100) * rect.width;
      const y = rect.top + (((i * 61) % 100) / 100) * rect.height;
      const started = performance.now();
      canvas.dispatchEvent(new PointerEvent("pointermove", { clientX: x, clientY: y, bubbles: true }));
      visible.getImageData(0, 0, 1, 1);
      handlers.push(performance.now() - started);
      await nextFrame();
      frames.push(performance.now() - started);
      if (!(document.getElementById("tooltip") as HTMLElement).hidden) hits++;
    }
    return {
      renderMedianMs: pct(renders, 0.5),
      renderP95Ms: pct(renders, 0.95),
      hoverHandlerMedianMs: pct(handlers, 0.5),
      hoverHandlerP95Ms: pct(handlers, 0.95),
      hoverFrameMedianMs: pct(frames, 0.5),
      hoverFrameP95Ms: pct(frames, 0.95),
      samples: frames.length,
      hits,
    };
  }, selector);
}
