import { cohenKappa, weightedMeanVariance, zCritical, type Interval } from "../stats/index.js";

/**
 * Kappa under a sampling design. Cohen's kappa is a smooth function of three
 * means (observed agreement p_o, the judge's yes share r, the labels' yes
 * share c; p_e = r·c + (1 - r)(1 - c)), so its design-based variance is the
 * variance of the weighted mean of its linearised values (Taylor
 * linearisation, Särndal, Swensson & Wretman 1992, §5.5-5.7; Binder 1983):
 *
 *   u_i = (a_i - p_o)/(1 - p_e) + (p_o - 1)/(1 - p_e)² · [(2c - 1)(j_i - r) + (2r - 1)(l_i - c)]
 *
 * with a_i = 1 when judge and label agree, j_i the judge's yes, l_i the
 * label's yes. Under a stratified design the variance of Σw·u/Σw is the
 * stratified one of {@link weightedMeanVariance}; with equal weights and no
 * strata it is Fleiss, Cohen & Everitt's asymptotic variance (up to n/(n - 1)).
 */

/** One labelled item as kappa's linearisation reads it: the judge's and the label's yes (1) / no (0), a weight and a stratum. */
export interface DesignPair {
  judge: 0 | 1;
  label: 0 | 1;
  /** Inverse inclusion probability (default 1). */
  weight?: number;
  stratum?: string;
}

/** Kappa's point estimate, its linearised (design-based) standard error and its interval (on the log(1 - kappa) scale). */
export interface DesignKappa {
  kappa: number | null;
  se: number | null;
  ci: Interval | null;
  /** The partial derivatives at the estimate, so a planner can linearise unlabelled strata the same way. */
  at: { po: number; r: number; c: number; pe: number } | null;
  reason?: string;
}

/** The linearised value of one (judge, label) pair at the estimates (see the module comment). */
export function kappaInfluence(judge: 0 | 1, label: 0 | 1, at: { po: number; r: number; c: number; pe: number }): number {
  const a = judge === label ? 1 : 0;
  const d = 1 - at.pe;
  return (a - at.po) / d + ((at.po - 1) / (d * d)) * ((2 * at.c - 1) * (judge - at.r) + (2 * at.r - 1) * (label - at.c));
}

/** The weighted means kappa rests on. */
export function kappaMeans(pairs: readonly DesignPair[]): { po: number; r: number; c: number; pe: number } | null {
  let sw = 0, a = 0, r = 0, c = 0;
  for (const p of pairs) {
    const w = p.weight ?? 1;
    sw += w;
    if (p.judge === p.label) a += w;
    r += w * p.judge;
    c += w * p.label;
  }
  if (!(sw > 0)) return null;
  const po = a / sw, rr = r / sw, cc = c / sw;
  return { po, r: rr, c: cc, pe: rr * cc + (1 - rr) * (1 - cc) };
}

/**
 * Kappa with its design-based standard error and its interval from
 * {@link log1mInterval}. Null with a reason when kappa is undefined (p_e = 1), one rater
 * is constant (kappa 0 by convention, no variance), or fewer than 2 items.
 *
 * @example
 * designKappa([{ judge: 1, label: 1, weight: 2, stratum: "yes" }, ...]).se
 */
export function designKappa(pairs: readonly DesignPair[], level = 0.95): DesignKappa {
  const at = kappaMeans(pairs);
  if (!at) return { kappa: null, se: null, ci: null, at: null, reason: "no items" };
  if (at.pe >= 1 - 1e-15) return { kappa: null, se: null, ci: null, at, reason: "both raters gave the same single label to every item" };
  const kappa = (at.po - at.pe) / (1 - at.pe);
  if (at.r <= 0 || at.r >= 1 || at.c <= 0 || at.c >= 1) return { kappa: 0, se: null, ci: null, at, reason: "one rater gave a single label: kappa is 0 by convention, with no variance" };
  if (pairs.length < 2) return { kappa, se: null, ci: null, at, reason: "the variance needs at least 2 items" };
  const u = pairs.map((p) => kappaInfluence(p.judge, p.label, at));
  const v = weightedMeanVariance(u, pairs.map((p) => p.weight ?? 1), pairs.map((p) => p.stratum));
  const se = v.varianceOfMean === null ? null : Math.sqrt(Math.max(0, v.varianceOfMean));
  if (se === null) return { kappa, se: null, ci: null, at, reason: "the variance needs at least 2 items" };
  return { kappa, se, ci: log1mInterval(kappa, se, level), at };
}

/**
 * kappa's interval on the scale of log(1 - kappa), back-transformed:
 * 1 - (1 - kappa)·exp(±z·se/(1 - kappa)), clipped to [-1, 1]. Its standard
 * error shrinks with the estimate's distance from 1, which the symmetric
 * interval ignores: in bench:labels the symmetric interval of a Neyman
 * stratified draw covered 93.6% of 3,000 draws at kappa 0.62, this one
 * 94.6%, with the same mean width. Kappa 1 (no disagreement) falls back to
 * the symmetric interval (zero width; the gate's goodness-of-fit half then
 * speaks).
 */
export function log1mInterval(kappa: number, se: number, level = 0.95): Interval {
  const z = zCritical(level);
  if (!(kappa < 1)) return { lo: Math.max(-1, kappa - z * se), hi: Math.min(1, kappa + z * se) };
  const s = se / (1 - kappa);
  return { lo: Math.max(-1, 1 - (1 - kappa) * Math.exp(z * s)), hi: Math.min(1, 1 - (1 - kappa) * Math.exp(-z * s)) };
}

/** The four cell shares of a 2x2 table, rows judge (yes, no), columns label (yes, no). */
export interface CellShares {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/**
 * n·var(kappa) under simple random sampling at the given cell shares: Fleiss,
 * Cohen & Everitt's asymptotic variance for one item (what a planner divides
 * by n). Null when kappa's variance is undefined there (a constant rater).
 *
 * @example
 * unitKappaVariance({ tp: 0.4, fp: 0.1, fn: 0.2, tn: 0.3 }) // 0.8064: at n = 100 items, kappa's standard error is sqrt(0.8064 / 100) ≈ 0.090
 */
export function unitKappaVariance(cells: CellShares): number | null {
  const k = cohenKappa([[cells.tp, cells.fp], [cells.fn, cells.tn]], { n: 2 });
  if (k.se === null || k.kappa === null || (k.constant.rater1 ?? k.constant.rater2) !== null) return null;
  return 2 * k.se * k.se;
}

/** Kappa at given cell shares. */
export function kappaAt(cells: CellShares): number | null {
  return cohenKappa([[cells.tp, cells.fp], [cells.fn, cells.tn]], { n: 2 }).kappa;
}
