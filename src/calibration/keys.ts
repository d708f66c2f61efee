import type { ItemKey } from "../golden/schema/items.js";

/**
 * The string keys judged items are joined on, in one place: calibration
 * pairs verdicts with labels on them, and the review queue, its skips and
 * its sampling use the same ones.
 */

/** A stable string key of an item (variant, question, rubric, unit), without the evidence it was judged on. */
export function itemKey(k: ItemKey): string {
  return [k.variant, k.question, k.rubric, k.unit].join("\u0000");
}

/**
 * One string that identifies an item *and* the exact evidence it was judged
 * on (its input hash), for maps and sets. Labels, verdicts and queue entries
 * join on this: a label made on one answer text never pairs with a verdict
 * on another.
 *
 * Its string form also fixes the canonical order `sample` draws from, so it
 * must not change: the same seed must keep giving the same queue.
 *
 * @example
 * evidenceKey({ variant: "bm25", question: "q1", rubric: "faithfulness", unit: "answer" }, "3f…")
 */
export function evidenceKey(k: ItemKey, inputHash: string): string {
  return [k.variant, k.question, k.rubric, k.unit, inputHash].join("\u0000");
}

/**
 * The canonical order of a draw's items: by {@link evidenceKey}, as strings.
 * `sample` and `plan --budget` list a population in it and the gate refuses
 * any other (a seed draws by position), so all three sort with this one.
 *
 * @example
 * items.sort(byEvidence) // canonical order
 */
export function byEvidence(a: { key: ItemKey; inputHash: string }, b: { key: ItemKey; inputHash: string }): number {
  return evidenceKey(a.key, a.inputHash) < evidenceKey(b.key, b.inputHash) ? -1 : 1;
}

/** The bare ItemKey of a record that carries more fields (a judgment, a label, a queue entry). */
export function keyOf(r: ItemKey): ItemKey {
  return { variant: r.variant, question: r.question, rubric: r.rubric, unit: r.unit };
}
