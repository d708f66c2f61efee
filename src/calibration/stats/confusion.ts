import type { Reasons } from "./types.js";

/** One judged item against the reference label; `weight` defaults to 1. */
export interface Pair {
  judge: "yes" | "no";
  label: "yes" | "no";
  weight?: number;
}

/**
 * The 2x2 confusion matrix of a judge against people, with "yes" (the answer
 * behaved correctly) as the positive class: tp = both yes, fn = person yes /
 * judge no, fp = person no / judge yes, tn = both no. With weights the cells
 * are sums of weights and `count` stays the number of items.
 */
export interface Confusion {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
  /** Sum of weights (the number of items when unweighted). */
  n: number;
  /** Number of items. */
  count: number;
}

/** Builds the confusion matrix of judge verdicts against labels. */
export function confusion(pairs: readonly Pair[]): Confusion {
  const m: Confusion = { tp: 0, fn: 0, fp: 0, tn: 0, n: 0, count: pairs.length };
  for (const p of pairs) {
    const w = p.weight ?? 1;
    if (!(w >= 0) || !Number.isFinite(w)) throw new RangeError(`weight must be finite and >= 0, got ${w}`);
    if (p.label === "yes") {
      if (p.judge === "yes") m.tp += w;
      else m.fn += w;
    } else if (p.judge === "yes") m.fp += w;
    else m.tn += w;
    m.n += w;
  }
  return m;
}

/**
 * The confusion matrix as the square table the agreement statistics take:
 * rows = judge (yes, no), columns = people (yes, no): `[[tp, fp], [fn, tn]]`.
 */
export function confusionTable(m: Confusion): number[][] {
  return [
    [m.tp, m.fp],
    [m.fn, m.tn],
  ];
}

/** Raw agreement, TPR and TNR of a confusion matrix. */
export interface Rates {
  /** (tp + tn) / n. */
  agreement: number | null;
  /** True positive rate (sensitivity) tp / (tp + fn): of the answers people passed, the share the judge passed. */
  tpr: number | null;
  /** True negative rate (specificity) tn / (tn + fp): of the answers people failed, the share the judge failed. */
  tnr: number | null;
  reasons: Reasons<"agreement" | "tpr" | "tnr">;
}

/**
 * Raw agreement (tp + tn)/n, TPR = tp/(tp + fn), TNR = tn/(tn + fp)
 * (Altman & Bland 1994, "Diagnostic tests 1: sensitivity and specificity",
 * BMJ 308:1552). A rate whose denominator is 0 is null with a reason.
 *
 * @example
 * rates(confusion([{ judge: "yes", label: "yes" }, { judge: "yes", label: "no" }]))
 * // { agreement: 0.5, tpr: 1, tnr: 0, reasons: {} }
 */
export function rates(m: Confusion): Rates {
  const reasons: Rates["reasons"] = {};
  const agreement = m.n > 0 ? (m.tp + m.tn) / m.n : null;
  if (agreement === null) reasons.agreement = "no labelled items";
  const pos = m.tp + m.fn;
  const neg = m.tn + m.fp;
  const tpr = pos > 0 ? m.tp / pos : null;
  if (tpr === null) reasons.tpr = "no item labelled yes";
  const tnr = neg > 0 ? m.tn / neg : null;
  if (tnr === null) reasons.tnr = "no item labelled no";
  return { agreement, tpr, tnr, reasons };
}
