import { isAscii } from "../../golden/normalise.js";
import { WS } from "./bytes.js";

const W: Uint8Array = WS; // a local alias: faster than an imported binding under tsx

/**
 * Splits one line `buf[start, end)` at white space (C's isspace, as
 * trec_eval does), writing the first `max` fields' [start, end) pairs into
 * `out`. Returns the number of fields on the line, which may exceed `max`.
 */
export function splitFields(buf: Uint8Array, start: number, end: number, out: Int32Array, max: number): number {
  let p = start;
  let n = 0;
  for (;;) {
    while (p < end && W[buf[p]!] === 1) p++;
    if (p >= end) return n;
    const s = p;
    while (p < end && W[buf[p]!] === 0) p++;
    if (n < max) {
      out[2 * n] = s;
      out[2 * n + 1] = p;
    }
    n++;
  }
}

/** Whether a line holds only white space. */
export function isBlank(buf: Uint8Array, start: number, end: number): boolean {
  for (let p = start; p < end; p++) if (W[buf[p]!] === 0) return false;
  return true;
}

/** Whether the line's first non-blank byte is `#` (trec_eval skips such comment lines). */
export function isComment(buf: Uint8Array, start: number, end: number): boolean {
  let p = start;
  while (p < end && W[buf[p]!] === 1) p++;
  return p < end && buf[p] === 35;
}

/**
 * Parses a whole number from bytes (optional sign, digits only); NaN for
 * anything else, so "1.5" or "rel" in a grade column is an error, not 1 or 0.
 */
export function parseInteger(buf: Uint8Array, start: number, end: number): number {
  let p = start;
  let neg = false;
  if (buf[p] === 45 || buf[p] === 43) {
    neg = buf[p] === 45;
    p++;
  }
  if (p >= end) return NaN;
  let v = 0;
  for (; p < end; p++) {
    const c = buf[p]!;
    if (c < 48 || c > 57) return NaN;
    v = v * 10 + (c - 48);
  }
  if (v > 2147483647) return NaN;
  return neg ? 0 - v : v;
}

/**
 * strcmp order of two ids as UTF-8 bytes, trec_eval's query order ("10"
 * sorts before "9"). ASCII ids compare as JS strings do; others by bytes.
 */
export function byteOrder(a: string, b: string): number {
  if (isAscii(a) && isAscii(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/**
 * Sorts `items` in place by {@link byteOrder} of their keys, testing each key
 * for ASCII once rather than at every comparison (10,000 query ids are
 * compared about 130,000 times).
 */
export function sortByteOrder<T>(items: T[], key: (x: T) => string): T[] {
  if (items.every((x) => isAscii(key(x)))) {
    return items.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }
  return items.sort((a, b) => byteOrder(key(a), key(b)));
}
