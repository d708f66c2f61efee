/**
 * L2-regularised logistic regression for the baseline's support model, made
 * to be reproducible byte for byte: features standardised on the training
 * rows, a fixed number of Newton (IRLS) steps from zero, each solved by
 * ml-matrix's Cholesky decomposition, and weights rounded to
 * {@link SIGNIFICANT} significant digits when they are turned back into a
 * short sum on the features' own scale. No randomness, no early stopping,
 * no order-dependent parallelism: the same rows give the same digits.
 */
import { CholeskyDecomposition, Matrix } from "ml-matrix";

/** Newton steps. The objective is smooth and strictly convex (the penalty), so 25 steps converge far below the rounding. */
export const ITERATIONS = 25;
/** Digits kept of every shipped number: far more than the data can tell apart, few enough to print stably. */
export const SIGNIFICANT = 6;

/** A fitted model as a short sum on the raw features: logit = intercept + Σ weights[i] × x[i]. */
export interface LinearModel {
  weights: number[];
  intercept: number;
}

/** Rounds to {@link SIGNIFICANT} significant digits (and turns -0 into 0). */
export function round(x: number): number {
  const r = Number(x.toPrecision(SIGNIFICANT));
  return r === 0 ? 0 : r;
}

/**
 * Fits y ~ x by maximising Σ log-likelihood − (lambda / 2) × Σ w_std², where
 * w_std are the weights on standardised features (population mean and
 * standard deviation of the training rows; a constant feature keeps sd 1) and
 * the intercept is not penalised. Returns the weights on the raw scale,
 * rounded.
 *
 * @example
 * fitLogistic([[0], [1], [2], [3]], [0, 0, 1, 1], 1) // { weights: [2.2...], intercept: -3.3... }
 */
export function fitLogistic(x: readonly (readonly number[])[], y: readonly number[], lambda: number): LinearModel {
  const n = x.length;
  if (n === 0 || n !== y.length) throw new RangeError(`logistic regression needs rows with one label each (${n} rows, ${y.length} labels)`);
  if (y.every((v) => v === y[0])) throw new RangeError(`logistic regression needs both labels among its ${n} training rows, all are ${y[0]}`);
  const d = x[0]!.length;
  const mean = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (const row of x) for (let j = 0; j < d; j++) mean[j]! += row[j]! / n;
  for (const row of x) for (let j = 0; j < d; j++) sd[j]! += (row[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) sd[j] = sd[j]! > 0 ? Math.sqrt(sd[j]!) : 1;
  const z = x.map((row) => [1, ...row.map((v, j) => (v - mean[j]!) / sd[j]!)]);

  let beta = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < ITERATIONS; it++) {
    const h = Matrix.zeros(d + 1, d + 1);
    const g = new Array<number>(d + 1).fill(0);
    for (let i = 0; i < n; i++) {
      const zi = z[i]!;
      let eta = 0;
      for (let j = 0; j <= d; j++) eta += beta[j]! * zi[j]!;
      const p = 1 / (1 + Math.exp(-eta));
      const w = p * (1 - p);
      for (let j = 0; j <= d; j++) {
        g[j]! += (y[i]! - p) * zi[j]!;
        for (let k = 0; k <= j; k++) h.set(j, k, h.get(j, k) + w * zi[j]! * zi[k]!);
      }
    }
    for (let j = 0; j <= d; j++) {
      for (let k = 0; k < j; k++) h.set(k, j, h.get(j, k));
      if (j > 0) {
        h.set(j, j, h.get(j, j) + lambda);
        g[j]! -= lambda * beta[j]!;
      }
    }
    const chol = new CholeskyDecomposition(h);
    if (!chol.isPositiveDefinite()) throw new RangeError("logistic regression: the Newton system is singular (separable data and lambda 0?)");
    const step = chol.solve(Matrix.columnVector(g)).getColumn(0);
    beta = beta.map((b, j) => b + step[j]!);
  }
  const weights = beta.slice(1).map((b, j) => b / sd[j]!);
  const intercept = beta[0]! - beta.slice(1).reduce((s, b, j) => s + (b * mean[j]!) / sd[j]!, 0);
  return { weights: weights.map(round), intercept: round(intercept) };
}

/** The model's probability for one row. */
export function predictLogistic(m: LinearModel, row: readonly number[]): number {
  let eta = m.intercept;
  for (let j = 0; j < row.length; j++) eta += m.weights[j]! * row[j]!;
  return 1 / (1 + Math.exp(-eta));
}

/** Mean log-loss of probabilities against 0/1 labels (probabilities clipped to [1e-12, 1 - 1e-12]). */
export function logLoss(p: readonly number[], y: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const q = Math.min(1 - 1e-12, Math.max(1e-12, p[i]!));
    s -= y[i] ? Math.log(q) : Math.log(1 - q);
  }
  return s / p.length;
}
