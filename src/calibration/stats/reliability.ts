import type { ScoredItem } from "./roc-auc.js";

/** One bin of a reliability diagram. */
export interface ReliabilityBin {
  /** The bin's P(yes) range: [lo, hi), the last one [lo, 1]. */
  lo: number;
  hi: number;
  /** Items in the bin (counts), and their weight. */
  n: number;
  weight: number;
  /** Mean P(yes) of its items, and the (weighted) share labelled yes; null when empty. */
  meanScore: number | null;
  observed: number | null;
}

/** A reliability diagram with its summary figures. */
export interface Reliability {
  bins: ReliabilityBin[];
  n: number;
  /** Expected calibration error: Σ_b (W_b / W) |observed_b - meanScore_b|; null without items. */
  ece: number | null;
  /** Brier score: mean (P(yes) - [label yes])²; null without items. */
  brier: number | null;
}

/** Bins of the reliability diagram and of the ECE. */
export const RELIABILITY_BINS = 10;

/**
 * The reliability diagram of P(yes) against the labels: `bins` equal-width
 * bins over [0, 1] (the last closed), each with its items' mean P(yes) and
 * the share labelled yes; the expected calibration error weighting each
 * bin's gap by its share of the items; and the Brier score. Weights
 * (inverse inclusion probabilities) carry over. Equal-width bins with few
 * items are noisy, and ECE is biased upwards at small n: read it with n.
 *
 * Sources: DeGroot & Fienberg (1983), The Statistician 32:12-22 (reliability diagrams);
 * Naeini, Cooper & Hauskrecht (2015), AAAI 29:2901-2907 (ECE); Brier (1950), Mon Weather Rev 78:1-3.
 *
 * @example
 * reliability([{ score: 0.9, label: "yes" }, { score: 0.8, label: "no" }]).ece // 0.45: half the items at 0.8 vs 0 observed, half at 0.9 vs 1
 */
export function reliability(items: readonly ScoredItem[], bins = RELIABILITY_BINS): Reliability {
  const acc = Array.from({ length: bins }, (_, b) => ({ lo: b / bins, hi: (b + 1) / bins, n: 0, weight: 0, score: 0, yes: 0 }));
  let w = 0;
  let brier = 0;
  for (const it of items) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor(it.score * bins)));
    const wt = it.weight ?? 1;
    const y = it.label === "yes" ? 1 : 0;
    const a = acc[b]!;
    a.n++;
    a.weight += wt;
    a.score += wt * it.score;
    a.yes += wt * y;
    w += wt;
    brier += wt * (it.score - y) ** 2;
  }
  const out = acc.map((a): ReliabilityBin => ({
    lo: a.lo,
    hi: a.hi,
    n: a.n,
    weight: a.weight,
    meanScore: a.weight > 0 ? a.score / a.weight : null,
    observed: a.weight > 0 ? a.yes / a.weight : null,
  }));
  const ece = w > 0 ? out.reduce((s, b) => s + (b.weight > 0 ? (b.weight / w) * Math.abs(b.observed! - b.meanScore!) : 0), 0) : null;
  return { bins: out, n: items.length, ece, brier: w > 0 ? brier / w : null };
}
