/**
 * Shared shapes of the statistics. A figure that cannot be computed is `null`
 * with a reason in `reasons`, never NaN and never a silent 0 or 1: a
 * rubber-stamp judge must not look perfect, and an empty table must not look
 * like chance agreement.
 */

/** A two-sided interval. */
export interface Interval {
  lo: number;
  hi: number;
}

/** Why each `null` field of a result is null, keyed by field name. */
export type Reasons<K extends string> = Partial<Record<K, string>>;

/**
 * A square table of counts (or weights): rows are rater 1's categories, columns
 * rater 2's, in the same order. For yes/no it is `[[a, b], [c, d]]` with
 * a = both yes, b = rater 1 yes / rater 2 no, c = rater 1 no / rater 2 yes,
 * d = both no.
 */
export type Table = readonly (readonly number[])[];

/** Checks that a table is square, non-negative and finite; throws RangeError (a programming error). */
export function checkTable(table: Table): number {
  const k = table.length;
  let n = 0;
  for (const row of table) {
    if (row.length !== k) throw new RangeError(`table must be square, got a row of ${row.length} in a ${k}-row table`);
    for (const v of row) {
      if (!Number.isFinite(v) || v < 0) throw new RangeError(`table cells must be finite and >= 0, got ${v}`);
      n += v;
    }
  }
  return n;
}

/** Row and column marginal proportions of a table with total n > 0. */
export function marginals(table: Table, n: number): { rows: number[]; cols: number[] } {
  const k = table.length;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const p = table[i]![j]! / n;
      rows[i]! += p;
      cols[j]! += p;
    }
  }
  return { rows, cols };
}

/**
 * Cross-tabulates two raters' labels into a square table over `categories`
 * (default: the sorted union of observed values; pass `["yes", "no"]` to keep
 * a class that neither rater used). Optional per-item weights (for example
 * inverse inclusion probabilities) replace the count of 1.
 *
 * @example
 * crossTable(["yes", "no"], ["yes", "yes"], ["yes", "no"]) // { table: [[1, 0], [1, 0]], categories: ["yes", "no"] }
 */
export function crossTable<T extends string | number>(
  rater1: readonly T[],
  rater2: readonly T[],
  categories?: readonly T[],
  weights?: readonly number[],
): { table: number[][]; categories: T[] } {
  if (rater1.length !== rater2.length) throw new RangeError(`raters must label the same items: ${rater1.length} vs ${rater2.length}`);
  if (weights && weights.length !== rater1.length) throw new RangeError("one weight per item");
  const cats = categories ? [...categories] : [...new Set([...rater1, ...rater2])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const index = new Map<T, number>(cats.map((c, i) => [c, i]));
  const table = cats.map(() => new Array<number>(cats.length).fill(0));
  for (let i = 0; i < rater1.length; i++) {
    const r = index.get(rater1[i]!);
    const c = index.get(rater2[i]!);
    if (r === undefined || c === undefined) throw new RangeError(`label ${String(r === undefined ? rater1[i] : rater2[i])} is not among the categories`);
    table[r]![c]! += weights ? weights[i]! : 1;
  }
  return { table, categories: cats };
}
