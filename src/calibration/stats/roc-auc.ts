import { zCritical } from "./special.js";
import type { Interval } from "./types.js";

/** A judge's score of one item (its P(yes)) against the label; `weight` defaults to 1. */
export interface ScoredItem {
  score: number;
  label: "yes" | "no";
  weight?: number;
}

/** ROC AUC with its counts; `auc` null (with `reason`) when a class is missing. */
export interface RocAuc {
  auc: number | null;
  /** Hanley & McNeil's normal interval, clipped to [0, 1] (on the item counts, not weights). */
  ci: Interval | null;
  level: number;
  n: number;
  nYes: number;
  nNo: number;
  reason?: string;
}

/**
 * The area under the ROC curve of `score` against the labels: the
 * probability that an item labelled yes scores above one labelled no, ties
 * counting half (the Mann-Whitney statistic / (n_yes n_no)); with weights,
 * each pair counts w_i w_j (Horvitz-Thompson pairs, so inclusion-probability
 * weights carry over). Interval: AUC ± z·SE with Hanley & McNeil's SE, which
 * rests on the item counts and is rough below a few dozen of each class,
 * hence n is always shown beside it.
 *
 * Sources: Hanley & McNeil (1982), Radiology 143:29-36; Bamber (1975), J Math Psychol 12:387-415.
 *
 * @example
 * rocAuc([{ score: 0.9, label: "yes" }, { score: 0.2, label: "no" }, { score: 0.2, label: "yes" }]).auc // 0.75
 */
export function rocAuc(items: readonly ScoredItem[], level = 0.95): RocAuc {
  const nYes = items.filter((i) => i.label === "yes").length;
  const nNo = items.length - nYes;
  const out: RocAuc = { auc: null, ci: null, level, n: items.length, nYes, nNo };
  if (nYes === 0 || nNo === 0) return { ...out, reason: nYes === 0 ? "no item labelled yes" : "no item labelled no" };
  const sorted = [...items].sort((a, b) => a.score - b.score);
  let wYes = 0;
  let wNo = 0;
  let below = 0;
  let sum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    let groupYes = 0;
    let groupNo = 0;
    for (; j < sorted.length && sorted[j]!.score === sorted[i]!.score; j++) {
      const w = sorted[j]!.weight ?? 1;
      if (sorted[j]!.label === "yes") groupYes += w;
      else groupNo += w;
    }
    sum += groupYes * (below + groupNo / 2);
    below += groupNo;
    wYes += groupYes;
    wNo += groupNo;
    i = j;
  }
  if (!(wYes > 0 && wNo > 0)) return { ...out, reason: "a class has zero weight" };
  const a = sum / (wYes * wNo);
  const q1 = a / (2 - a);
  const q2 = (2 * a * a) / (1 + a);
  const se = Math.sqrt(Math.max(0, (a * (1 - a) + (nYes - 1) * (q1 - a * a) + (nNo - 1) * (q2 - a * a)) / (nYes * nNo)));
  const z = zCritical(level);
  return { ...out, auc: a, ci: { lo: Math.max(0, a - z * se), hi: Math.min(1, a + z * se) } };
}
