import type { ItemKey } from "../golden/schema/items.js";

/**
 * One string that identifies an item *and* the exact evidence it was judged
 * on, for maps and sets. Labels, verdicts and queue entries join on this:
 * a label made on one answer text never pairs with a verdict on another.
 *
 * @example
 * itemId({ variant: "bm25", question: "q1", rubric: "faithfulness", unit: "answer" }, "3f…")
 *
 * Its string form also fixes the canonical order `sample` draws from, so it
 * must not change: the same seed must keep giving the same queue.
 */
export function itemId(key: ItemKey, inputHash: string): string {
  return [key.variant, key.question, key.rubric, key.unit, inputHash].join("\u0000");
}

/** The bare ItemKey of a record that carries more fields (a judgment, a label, a queue entry). */
export function keyOf(r: ItemKey): ItemKey {
  return { variant: r.variant, question: r.question, rubric: r.rubric, unit: r.unit };
}
