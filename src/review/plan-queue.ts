import type { ResolvedConfig } from "../golden/config.js";
import type { Judgment, QueueEntry } from "../golden/schema/items.js";
import type { Draw } from "../golden/schema/draw.js";
import { settledForDraw } from "../calibration/draw-status.js";
import { drawItemKey } from "../calibration/draws.js";
import { evidenceKey } from "../calibration/keys.js";
import type { LabelBook } from "../calibration/labels.js";
import { loadJudgeInputs } from "../judge/items/inputs.js";
import { cachedClaimsFrom } from "../judge/claims/prepare.js";
import { candidatesFromRun } from "./candidates.js";
import { shuffle, streamFor } from "./rng.js";
import { toEntry } from "./sample.js";

/**
 * The review queue of the draws `ragjudge plan --budget` recorded: each
 * drawn item not yet labelled (by anyone: its label already counts for the
 * draw; a label only from a panel-split queue does not) becomes a random-frame entry carrying its inclusion probability, its
 * stratum and the draw's id, with the evidence the judge saw (so its label
 * joins on the same input hash). Each rubric's entries are shuffled with the
 * seed, so position tells nothing of stratum or verdict.
 */
export function planQueue(cfg: ResolvedConfig, judgments: readonly Judgment[], book: LabelBook, draws: readonly (Draw | Omit<Draw, "time">)[], seed: number): QueueEntry[] {
  const rubrics = [...new Set(draws.map((d) => d.rubric))].sort();
  const { golden, variants, itemSet } = loadJudgeInputs(cfg, { rubrics, claimsFrom: cachedClaimsFrom(cfg.outPath(cfg.config.cacheDir)) });
  const { candidates } = candidatesFromRun(itemSet.items, judgments.filter((j) => rubrics.includes(j.rubric)), golden, variants);
  const byKey = new Map(candidates.map((c) => [evidenceKey(c.key, c.inputHash), c]));
  const out: QueueEntry[] = [];
  for (const d of draws) {
    const entries: QueueEntry[] = [];
    for (const i of d.drawn) {
      const it = d.population.items[i]!;
      const key = drawItemKey(d.rubric, it);
      // Labelled already (its labels decide it for the gate), not only as a second opinion.
      const l = book.items.get(key);
      if (settledForDraw(l)) continue;
      const c = byKey.get(key);
      if (c) entries.push(toEntry(c, "random", it.p, it.stratum, d.id));
    }
    out.push(...shuffle(entries, streamFor(seed, `${d.rubric}/plan-order`)));
  }
  return out;
}

/**
 * An active frame for error analysis (`ragjudge plan --active N`): per
 * rubric, the N not-yet-labelled items whose P(yes) is nearest 0.5 (the
 * judge least sure), in that order; a rubric whose judge gives no P(yes) has
 * none. Entries carry frame `active` and no inclusion probability: who is
 * drawn depends on the judge's uncertainty, so the gate never counts their
 * labels (src/calibration/plan/designs.ts), and no draw is recorded.
 */
export function activeQueue(cfg: ResolvedConfig, judgments: readonly Judgment[], book: LabelBook, n: number): { entries: QueueEntry[]; without: string[] } {
  const { golden, variants, itemSet } = loadJudgeInputs(cfg, { claimsFrom: cachedClaimsFrom(cfg.outPath(cfg.config.cacheDir)) });
  const { candidates, notes } = candidatesFromRun(itemSet.items, judgments, golden, variants);
  const fp = new Map(notes.map((x) => [x.rubric, x.fingerprint]));
  const sums = new Map<string, { s: number; k: number }>();
  for (const j of judgments) {
    if (j.pYes === undefined || j.fingerprint !== fp.get(j.rubric)) continue;
    const key = evidenceKey(j, j.inputHash);
    const e = sums.get(key) ?? { s: 0, k: 0 };
    e.s += j.pYes;
    e.k++;
    sums.set(key, e);
  }
  const entries: QueueEntry[] = [];
  const without: string[] = [];
  for (const rubric of [...new Set(candidates.map((c) => c.key.rubric))].sort()) {
    const ranked = candidates
      .filter((c) => c.key.rubric === rubric && book.items.get(evidenceKey(c.key, c.inputHash))?.label == null)
      .flatMap((c) => {
        const e = sums.get(evidenceKey(c.key, c.inputHash));
        return e ? [{ c, u: Math.abs(e.s / e.k - 0.5), k: evidenceKey(c.key, c.inputHash) }] : [];
      })
      .sort((a, b) => a.u - b.u || (a.k < b.k ? -1 : 1));
    if (!ranked.length) without.push(rubric);
    entries.push(...ranked.slice(0, n).map((x) => toEntry(x.c, "active")));
  }
  return { entries, without };
}
