import { zCritical } from "./special.js";
import type { Interval } from "./types.js";

/**
 * Wilson score interval for a proportion (Wilson 1927, JASA 22:209-212;
 * Brown, Cai & DasGupta 2001 recommend it over the Wald interval):
 *
 *   (p + z²/2n ± z·sqrt(p(1 - p)/n + z²/4n²)) / (1 + z²/n)
 *
 * Null when n = 0. It stays inside [0, 1] and is sensible at p = 0 or 1.
 * Counts that are not whole numbers with 0 <= successes <= n throw a
 * RangeError: the formula would return NaN bounds (or bounds for a
 * proportion above 1), which a report would print as an interval.
 *
 * @example
 * wilsonInterval(8, 10) // { lo: 0.490, hi: 0.943 }
 * wilsonInterval(5, 3)  // RangeError: Wilson interval: successes (5) cannot exceed the number of trials (3)
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): Interval | null {
  for (const [name, v] of [["the number of trials", n], ["successes", successes]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`Wilson interval: ${name} must be a whole number >= 0, got ${v}`);
  }
  if (successes > n) throw new RangeError(`Wilson interval: successes (${successes}) cannot exceed the number of trials (${n})`);
  if (n === 0) return null;
  const z = zCritical(level);
  const p = successes / n;
  const z2n = (z * z) / n;
  const center = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / (1 + z2n);
  return { lo: Math.max(0, center - half), hi: Math.min(1, center + half) };
}
