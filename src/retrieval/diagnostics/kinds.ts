import type { GoldenQuestion } from "../../golden/schema/golden.js";

/** Label of the row over every question, as in the retrieval score table. */
export const OVERALL = "overall";

/** Label of questions that carry no `kind`, so they still get a row of their own. */
export const NO_KIND = "(no kind)";

/** The query kind a figure is split by (seed 000: always split by kind). */
export function kindOf(q: Pick<GoldenQuestion, "kind">): string {
  return q.kind ?? NO_KIND;
}

/**
 * Kinds in a stable display order: code-unit order, the order the retrieval
 * score table (src/retrieval/score.ts) uses, so rows line up across tables
 * ({@link NO_KIND} sorts first).
 */
export function orderKinds(kinds: Iterable<string>): string[] {
  return [...new Set(kinds)].sort();
}

/** Arithmetic mean, or null for no values (an empty group has no mean, not 0). */
export function meanOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/**
 * Groups rows by their `kind`, in {@link orderKinds} order.
 *
 * @example
 * groupByKind([{kind:"lexical"},{kind:"factual"}]).map(([k]) => k) // ["factual","lexical"]
 */
export function groupByKind<T extends { kind: string }>(rows: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    let g = groups.get(r.kind);
    if (!g) groups.set(r.kind, (g = []));
    g.push(r);
  }
  return orderKinds(groups.keys()).map((k) => [k, groups.get(k)!]);
}
