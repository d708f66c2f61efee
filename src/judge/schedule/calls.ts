import type { Item } from "../items/items.js";

/** An item and the index of its verdict among a run's judgments (see {@link planCalls}). */
export interface Slot {
  index: number;
  item: Item;
}

/** One judge call: a rubric's evidence at one repeat, and every item its verdict decides. */
export interface Call {
  /** The first item with this evidence under this rubric: its evidence is what is sent. */
  item: Item;
  repeat: number;
  /** Every item the call decides, in item order. */
  slots: Slot[];
}

/** The calls of a run, its rule verdicts, and how many verdicts it produces. */
export interface CallPlan {
  /** In order of first appearance. */
  calls: Call[];
  /** Items decided by rule (no call), one verdict each. */
  rules: Slot[];
  /** Verdicts the run produces: one per rule item, `repeats` per judged item. */
  slots: number;
}

/**
 * The calls a judge run makes, the one grouping the run (`runJudge`), the
 * dry-run estimate and the batch export share: every item not decided by
 * rule is judged `repeats` times, and items with identical evidence under
 * one rubric (same input hash) share each repeat's call. Verdict slots are
 * numbered in item order, `repeats` consecutive slots per judged item (by
 * repeat) and one per rule item.
 *
 * @example
 * const { calls, rules } = planCalls(items, 2);
 * // calls[0] = { item, repeat: 0, slots: [{ index: 0, item }, ...items with the same evidence] }
 */
export function planCalls(items: readonly Item[], repeats: number): CallPlan {
  const byKey = new Map<string, Call>();
  const rules: Slot[] = [];
  let next = 0;
  for (const item of items) {
    if (item.rule) {
      rules.push({ index: next++, item });
      continue;
    }
    for (let repeat = 0; repeat < repeats; repeat++) {
      const slot = { index: next++, item };
      const key = `${item.rubric.name}\0${item.inputHash}\0${repeat}`;
      const call = byKey.get(key);
      if (call) call.slots.push(slot);
      else byKey.set(key, { item, repeat, slots: [slot] });
    }
  }
  return { calls: [...byKey.values()], rules, slots: next };
}
