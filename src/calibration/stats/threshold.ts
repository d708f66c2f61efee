import { confusion, confusionTable, type Pair } from "./confusion.js";
import { cohenKappa, type CohenKappa } from "./kappa.js";
import type { ScoredItem } from "./roc-auc.js";

/** Verdicts of a threshold: yes when P(yes) >= threshold. */
export function verdictsAt(items: readonly ScoredItem[], threshold: number): Pair[] {
  return items.map((i) => ({ judge: i.score >= threshold ? "yes" : "no", label: i.label, ...(i.weight === undefined ? {} : { weight: i.weight }) }));
}

/** Cohen's kappa of the verdicts a threshold gives (Kish's effective n when weighted). */
export function kappaAt(items: readonly ScoredItem[], threshold: number, level = 0.95): CohenKappa {
  let sw = 0;
  let sw2 = 0;
  for (const i of items) {
    sw += i.weight ?? 1;
    sw2 += (i.weight ?? 1) ** 2;
  }
  return cohenKappa(confusionTable(confusion(verdictsAt(items, threshold))), { n: sw2 > 0 ? (sw * sw) / sw2 : 0, level });
}

/** The threshold chosen on dev items, or why none could be. */
export type ChosenThreshold = { threshold: number; kappa: number; n: number } | { threshold: null; kappa: null; n: number; reason: string };

/**
 * The P(yes) threshold that maximises Cohen's kappa on the dev items
 * (verdict yes when P(yes) >= t). Candidates: 0.5 (the judge's own cut) and
 * every midpoint between adjacent distinct scores, so the cut never sits on
 * an item. Ties go to the candidate nearest 0.5, then the lower. Choose it
 * on dev items only and apply it to held-out ones ({@link kappaAt}): chosen
 * on the items it is measured on, the kappa would be optimistic.
 *
 * @example
 * bestThreshold([{ score: 0.7, label: "yes" }, { score: 0.4, label: "yes" }, { score: 0.2, label: "no" }]) // { threshold: 0.3, kappa: 1, n: 3 }
 */
export function bestThreshold(dev: readonly ScoredItem[]): ChosenThreshold {
  const n = dev.length;
  if (!dev.some((i) => i.label === "yes") || !dev.some((i) => i.label === "no")) {
    return { threshold: null, kappa: null, n, reason: n === 0 ? "no dev labels with a P(yes)" : "the dev labels are all one answer" };
  }
  const scores = [...new Set(dev.map((i) => i.score))].sort((a, b) => a - b);
  const candidates = [0.5];
  for (let i = 1; i < scores.length; i++) candidates.push((scores[i - 1]! + scores[i]!) / 2);
  let best: { threshold: number; kappa: number } | undefined;
  for (const t of candidates) {
    const k = kappaAt(dev, t).kappa;
    if (k === null) continue;
    const better = !best || k > best.kappa + 1e-12 || (Math.abs(k - best.kappa) <= 1e-12 && (Math.abs(t - 0.5) < Math.abs(best.threshold - 0.5) || (Math.abs(t - 0.5) === Math.abs(best.threshold - 0.5) && t < best.threshold)));
    if (better) best = { threshold: t, kappa: k };
  }
  return best ? { ...best, n } : { threshold: null, kappa: null, n, reason: "kappa is undefined at every candidate threshold" };
}
