import { zCritical } from "./special.js";
import type { Interval, Reasons } from "./types.js";

/** One labelled item for prediction-powered inference: prediction and label in [0, 1], optional weight. */
export interface PpiLabelled {
  prediction: number;
  label: number;
  weight?: number;
}

/** A prediction-powered estimate of a mean. */
export interface PpiEstimate {
  /** Items whose prediction enters the first term. */
  nAll: number;
  /** Labelled items (the rectifier's sample). */
  nLabelled: number;
  /** Kish effective size of the labelled sample (equal to nLabelled when unweighted). */
  nEffective: number;
  /** Mean prediction on all items. */
  meanPrediction: number | null;
  /** The rectifier: mean of (prediction - label) on the labelled items. */
  rectifier: number | null;
  /** meanPrediction - rectifier, clipped to [0, 1] when `clip` (the default). */
  estimate: number | null;
  unclipped: number | null;
  se: number | null;
  ci: Interval | null;
  level: number;
  reasons: Reasons<"meanPrediction" | "rectifier" | "estimate" | "se" | "ci">;
}

function weightedMeanVar(values: readonly number[], weights: readonly number[]): { mean: number; variance: number | null; nEff: number } {
  let sw = 0, sw2 = 0, s = 0;
  for (let i = 0; i < values.length; i++) {
    sw += weights[i]!;
    sw2 += weights[i]! ** 2;
    s += weights[i]! * values[i]!;
  }
  const m = s / sw;
  const nEff = (sw * sw) / sw2;
  if (values.length < 2) return { mean: m, variance: null, nEff };
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += weights[i]! * (values[i]! - m) ** 2;
  // Reliability-weighted unbiased variance; equals the sample variance when all weights are 1.
  const variance = ss / (sw - sw2 / sw);
  return { mean: m, variance, nEff };
}

/**
 * Prediction-powered inference for a mean (Angelopoulos, Bates, Fannjiang,
 * Jordan & Zrnic 2023, Science 382:669-674, §"Mean estimation"):
 *
 *   θ̂ = mean_{all N}(f) - mean_{n labelled}(f - y)
 *   se = sqrt( var_N(f)/N + var_n(f - y)/n )
 *   CI = θ̂ ± z_{1-α/2} · se
 *
 * For a pass rate f is the judge's verdict (1 = yes) and y the person's
 * label; the labelled items must be a uniform random sample (weights,
 * inverse inclusion probabilities of a stratified random frame, turn both
 * rectifier terms into weighted means with Kish's effective n). ragjudge's
 * "all items" include the labelled ones, a slight departure from the paper's
 * disjoint unlabelled set that is negligible when N >> n. The estimate and
 * interval are clipped to [0, 1] (a rate), with `unclipped` kept.
 *
 * @example
 * ppiMean([1, 1, 0, 1], [{ prediction: 1, label: 0 }, { prediction: 0, label: 0 }]).estimate // 0.25
 */
export function ppiMean(
  predictions: readonly number[],
  labelled: readonly PpiLabelled[],
  options: { level?: number; clip?: boolean } = {},
): PpiEstimate {
  const level = options.level ?? 0.95;
  const clip = options.clip ?? true;
  const out: PpiEstimate = {
    nAll: predictions.length, nLabelled: labelled.length, nEffective: 0,
    meanPrediction: null, rectifier: null, estimate: null, unclipped: null, se: null, ci: null, level, reasons: {},
  };
  const r = out.reasons;
  const f = predictions.length ? weightedMeanVar(predictions, predictions.map(() => 1)) : null;
  const d = labelled.length
    ? weightedMeanVar(labelled.map((l) => l.prediction - l.label), labelled.map((l) => l.weight ?? 1))
    : null;
  if (f) out.meanPrediction = f.mean;
  else r.meanPrediction = "no judged items";
  if (d) {
    out.rectifier = d.mean;
    out.nEffective = d.nEff;
  } else r.rectifier = "no labelled items from a random frame";
  if (!f || !d) {
    r.estimate = r.meanPrediction ?? r.rectifier!;
    r.se = r.estimate;
    r.ci = r.estimate;
    return out;
  }
  const unclipped = f.mean - d.mean;
  const limit = (v: number) => (clip ? Math.min(1, Math.max(0, v)) : v);
  out.unclipped = unclipped;
  out.estimate = limit(unclipped);
  if (f.variance === null || d.variance === null) {
    r.se = "the variance needs at least 2 judged and 2 labelled items";
    r.ci = r.se;
    return out;
  }
  const se = Math.sqrt(Math.max(0, f.variance) / predictions.length + Math.max(0, d.variance) / d.nEff);
  out.se = se;
  const z = zCritical(level);
  out.ci = { lo: limit(unclipped - z * se), hi: limit(unclipped + z * se) };
  return out;
}
