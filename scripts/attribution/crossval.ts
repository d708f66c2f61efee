/**
 * Cross-validation of the baseline's support model on the AttributionBench
 * development split: the fixed fold assignment, the choice of the
 * regularisation strength, and the nested procedure whose out-of-fold
 * verdicts are the honest figures `npm run attribution:baseline` prints.
 *
 * Folds are drawn over questions, not rows: several claims of one answer
 * share a question and often a reference, and a claim's sibling in the
 * training folds would flatter the figure. Every fold assignment is seeded
 * and depends only on the rows' order in the file.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import { stripMarkers } from "../../src/golden/citations.js";
import { normalise } from "../../src/golden/normalise.js";
import { FEATURES, alignClaim, indexReferences } from "../../src/judge/baseline/align.js";
import { type AttributionRow, LABELS } from "./data.js";
import { type LinearModel, fitLogistic, logLoss, predictLogistic } from "./logistic.js";
import { SPLIT_SEED } from "./split.js";

/** Number of folds. */
export const FOLDS = 10;
/** The seed of the fold assignment (the project's data seed). */
export const FOLD_SEED = SPLIT_SEED;
/** The regularisation strengths tried; the one with the lowest cross-validated log-loss is used. */
export const LAMBDAS: readonly number[] = [0.1, 1, 10, 100];

/** One claim as the model is trained on it: its features against all its references, and its label. */
export interface TrainingRow {
  id: string;
  dataset: string;
  fold: number;
  /** 1 = supported ("attributable"). */
  y: number;
  x: number[];
}

/**
 * The training rows: each claim (citation markers removed) aligned with all
 * its references, in {@link FEATURES} order, with the fold of its question.
 * Claims stating a number or code that no reference states are left out:
 * the number rule decides those before the model is asked, so the model
 * learns only the claims it will judge. The judge aligns an answer sentence
 * by sentence; AttributionBench claims are single sentences (97%), so the
 * whole claim is one unit here.
 */
export function trainingRows(rows: readonly AttributionRow[], fold: readonly number[]): TrainingRow[] {
  const out: TrainingRow[] = [];
  rows.forEach((r, i) => {
    const a = alignClaim(stripMarkers(r.claim.trim()), r.question.trim(), indexReferences(r.references));
    if (a.missingNumbers.length > 0) return;
    out.push({ id: r.id, dataset: r.src_dataset ?? "unknown", fold: fold[i]!, y: LABELS[r.attribution_label] === "yes" ? 1 : 0, x: FEATURES.map((f) => a.features[f]) });
  });
  return out;
}

/**
 * The fold of every row: the distinct groups (normalised questions) in order
 * of first appearance are shuffled with a seeded Fisher-Yates shuffle
 * (xoroshiro128+, pure-rand) and dealt round-robin into `k` folds.
 *
 * @example
 * assignFolds(["q1", "q1", "q2"], 2, 7) // [1, 1, 0] (for some seed): both q1 rows in one fold
 */
export function assignFolds(groups: readonly string[], k = FOLDS, seed = FOLD_SEED): number[] {
  const keys = [...new Set(groups)];
  const rng = xoroshiro128plus(seed);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const fold = new Map(keys.map((g, i) => [g, i % k]));
  return groups.map((g) => fold.get(g)!);
}

/** The fold of each row, grouped by normalised question. */
export function questionFolds(rows: readonly AttributionRow[], k = FOLDS, seed = FOLD_SEED): number[] {
  return assignFolds(rows.map((r) => normalise(r.question)), k, seed);
}

const pick = <T>(xs: readonly T[], idx: readonly number[]): T[] => idx.map((i) => xs[i]!);

/** Fits on the rows at `idx`. */
export function fitOn(rows: readonly TrainingRow[], idx: readonly number[], lambda: number): LinearModel {
  const r = pick(rows, idx);
  return fitLogistic(r.map((x) => x.x), r.map((x) => x.y), lambda);
}

/**
 * Chooses lambda among the rows at `idx` by leave-one-fold-out over the folds
 * they hold: the lowest pooled log-loss, the larger lambda (the simpler model)
 * on ties to 1e-12.
 */
export function chooseLambda(rows: readonly TrainingRow[], idx: readonly number[]): { lambda: number; losses: number[] } {
  const fold = rows.map((r) => r.fold);
  const folds = [...new Set(pick(fold, idx))].sort((a, b) => a - b);
  const losses = LAMBDAS.map((lambda) => {
    const p: number[] = [];
    const y: number[] = [];
    for (const f of folds) {
      const model = fitOn(rows, idx.filter((i) => fold[i] !== f), lambda);
      for (const i of idx) {
        if (fold[i] !== f) continue;
        p.push(predictLogistic(model, rows[i]!.x));
        y.push(rows[i]!.y);
      }
    }
    return logLoss(p, y);
  });
  let best = 0;
  losses.forEach((l, i) => {
    if (l <= losses[best]! + 1e-12) best = i;
  });
  return { lambda: LAMBDAS[best]!, losses };
}

/** The fitted model of the whole procedure (lambda chosen by cross-validation, then fitted on every row). */
export function fitAll(rows: readonly TrainingRow[]): { model: LinearModel; lambda: number; losses: number[] } {
  const all = rows.map((_, i) => i);
  const { lambda, losses } = chooseLambda(rows, all);
  return { model: fitOn(rows, all, lambda), lambda, losses };
}

/**
 * Nested cross-validation: for each outer fold, the whole procedure
 * ({@link fitAll}: choosing lambda by cross-validation over the other folds,
 * then fitting on them) sees only the other folds. The model of fold f is
 * the one to judge fold f's items with.
 */
export function nestedModels(rows: readonly TrainingRow[], k = FOLDS): { model: LinearModel; lambda: number }[] {
  return Array.from({ length: k }, (_, f) => {
    const train = rows.map((_, i) => i).filter((i) => rows[i]!.fold !== f);
    const { lambda } = chooseLambda(rows, train);
    return { model: fitOn(rows, train, lambda), lambda };
  });
}
