import { zCritical } from "./special.js";
import type { Interval, Reasons } from "./types.js";

/**
 * One labelled item for prediction-powered inference: prediction and label
 * in [0, 1], optional weight (inverse inclusion probability) and the stratum
 * of a stratified frame.
 */
export interface PpiLabelled {
  prediction: number;
  label: number;
  weight?: number;
  stratum?: string;
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

/**
 * A weighted (Hájek) mean Σw·x/Σw and the estimated variance of that mean by
 * linearization, as survey samplers compute it (Särndal, Swensson & Wretman
 * 1992, §5.7; R survey's `svymean` with replacement): with
 * z_i = w_i (x_i - mean)/Σw,
 *
 *   var(mean) = Σ_h n_h/(n_h - 1) Σ_{i in h} (z_i - z̄_h)²
 *
 * over strata h (one stratum when none is given, or when a stratum has a
 * single item). With equal weights and no strata this is s²/n exactly.
 * Null variance with fewer than two items.
 */
export function weightedMeanVariance(
  values: readonly number[],
  weights: readonly number[],
  strata?: readonly (string | undefined)[],
): { mean: number; varianceOfMean: number | null; nEff: number } {
  let sw = 0, sw2 = 0, s = 0;
  for (let i = 0; i < values.length; i++) {
    sw += weights[i]!;
    sw2 += weights[i]! ** 2;
    s += weights[i]! * values[i]!;
  }
  const mean = s / sw;
  const nEff = (sw * sw) / sw2;
  if (values.length < 2) return { mean, varianceOfMean: null, nEff };
  const groups = new Map<string, number[]>();
  for (let i = 0; i < values.length; i++) {
    const h = strata?.[i] ?? "";
    const z = (weights[i]! * (values[i]! - mean)) / sw;
    const g = groups.get(h);
    if (g) g.push(z);
    else groups.set(h, [z]);
  }
  // A stratum of one item has no variance estimate of its own: fall back to one stratum.
  const parts = [...groups.values()].some((g) => g.length < 2) ? [[...groups.values()].flat()] : [...groups.values()];
  let v = 0;
  for (const g of parts) {
    const zBar = g.reduce((a, b) => a + b, 0) / g.length;
    let ss = 0;
    for (const z of g) ss += (z - zBar) ** 2;
    v += (g.length / (g.length - 1)) * ss;
  }
  return { mean, varianceOfMean: v, nEff };
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
 * label; the labelled items must be a uniform random sample. Weights
 * (inverse inclusion probabilities of a stratified random frame) make the
 * rectifier a weighted mean whose variance is the stratified linearization
 * of {@link weightedMeanVariance} (the unweighted case is var_n(f - y)/n
 * exactly). ragjudge's
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
  const f = predictions.length ? weightedMeanVariance(predictions, predictions.map(() => 1)) : null;
  const d = labelled.length
    ? weightedMeanVariance(labelled.map((l) => l.prediction - l.label), labelled.map((l) => l.weight ?? 1), labelled.map((l) => l.stratum))
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
  if (f.varianceOfMean === null || d.varianceOfMean === null) {
    r.se = "the variance needs at least 2 judged and 2 labelled items";
    r.ci = r.se;
    return out;
  }
  const se = Math.sqrt(Math.max(0, f.varianceOfMean) + Math.max(0, d.varianceOfMean));
  out.se = se;
  const z = zCritical(level);
  out.ci = { lo: limit(unclipped - z * se), hi: limit(unclipped + z * se) };
  return out;
}
