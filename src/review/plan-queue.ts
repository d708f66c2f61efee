import type { ResolvedConfig } from "../golden/config.js";
import type { Judgment, QueueEntry } from "../golden/schema/items.js";
import type { Draw } from "../golden/schema/draw.js";
import { drawItemKey } from "../calibration/draws.js";
import { evidenceKey } from "../calibration/keys.js";
import type { LabelBook } from "../calibration/labels.js";
import { loadJudgeInputs } from "../judge/items/inputs.js";
import { candidatesFromRun } from "./candidates.js";
import { shuffle, streamFor } from "./rng.js";
import { toEntry } from "./sample.js";

/**
 * The review queue of the draws `ragjudge plan --budget` recorded: each
 * drawn item not yet labelled (by anyone: its label already counts for the
 * draw) becomes a random-frame entry carrying its inclusion probability, its
 * stratum and the draw's id, with the evidence the judge saw (so its label
 * joins on the same input hash). Each rubric's entries are shuffled with the
 * seed, so position tells nothing of stratum or verdict.
 */
export function planQueue(cfg: ResolvedConfig, judgments: readonly Judgment[], book: LabelBook, draws: readonly (Draw | Omit<Draw, "time">)[], seed: number): QueueEntry[] {
  const rubrics = [...new Set(draws.map((d) => d.rubric))].sort();
  const { golden, variants, itemSet } = loadJudgeInputs(cfg, { rubrics });
  const { candidates } = candidatesFromRun(itemSet.items, judgments.filter((j) => rubrics.includes(j.rubric)), golden, variants);
  const byKey = new Map(candidates.map((c) => [evidenceKey(c.key, c.inputHash), c]));
  const out: QueueEntry[] = [];
  for (const d of draws) {
    const entries: QueueEntry[] = [];
    for (const i of d.drawn) {
      const it = d.population.items[i]!;
      const key = drawItemKey(d.rubric, it);
      if (book.items.get(key)?.label != null) continue;
      const c = byKey.get(key);
      if (c) entries.push(toEntry(c, "random", it.p, it.stratum, d.id));
    }
    out.push(...shuffle(entries, streamFor(seed, `${d.rubric}/plan-order`)));
  }
  return out;
}
