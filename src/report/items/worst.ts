import type { Outcome } from "../search-or-answer.js";
import type { ItemRecord } from "./schema.js";

/**
 * The worst items of each failure class, for report.md: the ones to read
 * first in a pull-request comment. "Worst" is decided from the evidence, in
 * this order:
 *
 * - retrieval failures: the relevant chunk ranked furthest down (never
 *   retrieved first), then the most failed verdicts;
 * - generation failures: the most failed verdicts (answer rubrics and
 *   citation pairs), then the relevant chunk ranked highest (at rank 1 the
 *   generator had the answer in front of it: the clearest answering failure);
 * - invented answers: the most failed verdicts.
 *
 * Ties keep the golden set's order.
 */

/** The failure classes report.md lists, in reading order. */
export const FAILURE_CLASSES = ["retrieval-failure", "generation-failure", "invented-answer"] as const satisfies readonly Outcome[];
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** How many verdicts of an item say no (every unit of every rubric). */
export function failedVerdicts(item: ItemRecord): number {
  return item.rubrics.reduce((n, r) => n + r.units.filter((u) => u.verdict === "no").length, 0);
}

/** The rank a sort puts an absent first relevant chunk at: below every real rank. */
const NEVER = Number.MAX_SAFE_INTEGER;

function compare(cls: FailureClass): (a: ItemRecord, b: ItemRecord) => number {
  const rank = (x: ItemRecord) => x.firstRelevantRank ?? NEVER;
  if (cls === "retrieval-failure") return (a, b) => rank(b) - rank(a) || failedVerdicts(b) - failedVerdicts(a);
  if (cls === "generation-failure") return (a, b) => failedVerdicts(b) - failedVerdicts(a) || rank(a) - rank(b);
  return (a, b) => failedVerdicts(b) - failedVerdicts(a);
}

/**
 * The `n` worst items of one variant in one failure class.
 *
 * @example
 * worstItems(items, "hybrid-rerank", "generation-failure", 10).map((i) => i.question)
 */
export function worstItems(items: readonly ItemRecord[], variant: string, cls: FailureClass, n = 10): ItemRecord[] {
  const pool = items.map((it, i) => ({ it, i })).filter(({ it }) => it.variant === variant && it.outcome === cls);
  const cmp = compare(cls);
  return pool.sort((a, b) => cmp(a.it, b.it) || a.i - b.i).slice(0, n).map(({ it }) => it);
}

/**
 * The judge's reasons behind an item's failure: each rubric that said no,
 * with its reason (a citation rubric's failing pairs by unit).
 *
 * @example
 * failingReasons(item) // "correctness: The reference says 45 days; the answer says 30."
 */
export function failingReasons(item: ItemRecord): string {
  const parts: string[] = [];
  for (const r of item.rubrics) {
    const no = r.units.filter((u) => u.verdict === "no");
    if (no.length === 0) continue;
    parts.push(no.length === 1 && r.units.length === 1 ? `${r.rubric}: ${no[0]!.reason}` : `${r.rubric}: ${no.map((u) => `${u.unit}: ${u.reason}`).join("; ")}`);
  }
  return parts.join(" · ");
}
