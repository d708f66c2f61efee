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
  // By rubric, then input hash, then repeat: no key string built per item.
  const byRubric = new Map<string, Map<string, Call[]>>();
  const calls: Call[] = [];
  const rules: Slot[] = [];
  let next = 0;
  for (const item of items) {
    if (item.rule) {
      rules.push({ index: next++, item });
      continue;
    }
    const name = item.rubric.name;
    const byHash = byRubric.get(name) ?? byRubric.set(name, new Map()).get(name)!;
    let same = byHash.get(item.inputHash);
    if (!same) byHash.set(item.inputHash, (same = []));
    for (let repeat = 0; repeat < repeats; repeat++) {
      const slot = { index: next++, item };
      const call = same[repeat];
      if (call) call.slots.push(slot);
      else calls.push((same[repeat] = { item, repeat, slots: [slot] }));
    }
  }
  return { calls, rules, slots: next };
}
