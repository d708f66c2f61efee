import { FEATURES, type FeatureName, type Features } from "./align.js";

/**
 * The learned support model of the baseline judge: a logistic regression over
 * the alignment features of align.ts, so its prediction is a short sum anyone
 * can redo by hand:
 *
 *     logit = intercept + Σ weight_i × feature_i,   pYes = 1 / (1 + e^-logit)
 *
 * and the claim is supported when pYes >= threshold. The numbers live in
 * support-model.ts, written by `npm run attribution:fit` (which names the data
 * and split they were fitted on) and reproduced by it byte for byte.
 */
export interface SupportModel {
  /** Identity and version of the model; both go into the baseline's fingerprint with the weights. */
  name: string;
  version: number;
  /** Where the weights come from: data, split and its hash, fitting procedure (for audits; not used to predict). */
  data: { source: string; split: string; rows: number; sha256: string };
  fit: { method: string; lambda: number; folds: number; foldSeed: number; iterations: number };
  features: readonly FeatureName[];
  /** One weight per feature, on the feature's own scale (per unit of the feature). */
  weights: readonly number[];
  intercept: number;
  threshold: number;
}

/** Checks a model's shape (known features, one finite weight each, threshold in (0, 1)); throws a RangeError naming the problem. */
export function checkModel(m: SupportModel): void {
  if (m.weights.length !== m.features.length) throw new RangeError(`support model ${m.name}: ${m.weights.length} weights for ${m.features.length} features`);
  for (const f of m.features) if (!(FEATURES as readonly string[]).includes(f)) throw new RangeError(`support model ${m.name}: unknown feature ${JSON.stringify(f)}`);
  for (const w of [...m.weights, m.intercept]) if (!Number.isFinite(w)) throw new RangeError(`support model ${m.name}: weights must be finite numbers`);
  if (!(m.threshold > 0 && m.threshold < 1)) throw new RangeError(`support model ${m.name}: threshold must be within (0, 1), got ${m.threshold}`);
}

/** What the fingerprint keeps of a model: everything that changes a verdict or a probability. */
export function modelIdentity(m: SupportModel): unknown {
  return { name: m.name, version: m.version, features: m.features, weights: m.weights, intercept: m.intercept, threshold: m.threshold };
}

/** The model's probability that the claim is supported. */
export function supportProbability(m: SupportModel, f: Features): number {
  let logit = m.intercept;
  m.features.forEach((name, i) => {
    logit += m.weights[i]! * f[name];
  });
  return 1 / (1 + Math.exp(-logit));
}
