/**
 * What the counting benches (repair-counts.ts, fewest-phases.ts) share: replacing a class's method
 * by a wrapper around it, and the process's CPU time in milliseconds.
 */
export type Method = (...args: unknown[]) => unknown;

/** Replaces `owner.prototype[name]` by `wrap(original)`, for every instance from then on. */
export function wrapMethod(owner: { prototype: object }, name: string, wrap: (original: Method) => Method): void {
  const proto = owner.prototype as Record<string, Method>;
  proto[name] = wrap(proto[name]!);
}

/** User and system CPU time of this process so far, in milliseconds. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
