import type { Interval } from "./stats/types.js";

/**
 * Number formatting shared by every calibration output (tables, Markdown,
 * gate messages, reasons). A figure that is 0 up to rounding prints as 0:
 * `toFixed` keeps the sign of a tiny negative (a kappa of -1e-17 from
 * floating point, a lower bound just under 0), and "-0.00" reads as a real
 * negative value.
 */

/**
 * `v.toFixed(digits)` without a minus sign on a value that rounds to zero.
 *
 * @example
 * fixed(-1e-17)    // "0.00"
 * fixed(-0.004, 2) // "0.00"
 * fixed(-0.006, 2) // "-0.01"
 */
export function fixed(v: number, digits = 2): string {
  const s = v.toFixed(digits);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/**
 * {@link fixed}, or "n/a" for a figure that is null (its reason is printed elsewhere).
 *
 * @example
 * fixedOrNa(null) // "n/a"
 */
export function fixedOrNa(v: number | null | undefined, digits = 2): string {
  return v === null || v === undefined ? "n/a" : fixed(v, digits);
}

/**
 * An interval as "[lo, hi]" with {@link fixed}, or "n/a".
 *
 * @example
 * interval({ lo: -0.0001, hi: 0.5 }) // "[0.00, 0.50]"
 */
export function interval(c: Interval | null | undefined, digits = 2): string {
  return c ? `[${fixed(c.lo, digits)}, ${fixed(c.hi, digits)}]` : "n/a";
}

/**
 * A p-value: "< 1e-12", exponent form below 0.001, else three decimals.
 *
 * @example
 * pValue(0.0241) // "0.024"
 */
export function pValue(p: number | null): string {
  return p === null ? "n/a" : p < 1e-12 ? "< 1e-12" : p < 0.001 ? p.toExponential(1) : fixed(p, 3);
}
