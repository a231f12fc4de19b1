/** Violations are priced this high while looking for a feasible place (prices only rank places here). */
export const STRICT = { load: 1e6, timeWarp: 1e6, duration: 1e6, distance: 1e6, stops: 1e6 };

/** The k cheapest offers seen (unordered), and the price a new offer must beat. */
export class Cheapest {
  readonly items: Int32Array;
  private readonly prices: Float64Array;
  count = 0;

  constructor(readonly k: number) {
    this.items = new Int32Array(k);
    this.prices = new Float64Array(k);
  }

  clear(): void {
    this.count = 0;
  }

  limit(): number {
    if (this.count < this.k) return Number.POSITIVE_INFINITY;
    let worst = 0;
    for (let i = 0; i < this.k; i++) worst = Math.max(worst, this.prices[i]!);
    return worst;
  }

  offer(price: number, item: number): void {
    if (this.count < this.k) {
      this.prices[this.count] = price;
      this.items[this.count++] = item;
      return;
    }
    let worst = 0;
    for (let i = 1; i < this.k; i++) if (this.prices[i]! > this.prices[worst]!) worst = i;
    if (price >= this.prices[worst]!) return;
    this.prices[worst] = price;
    this.items[worst] = item;
  }
}
