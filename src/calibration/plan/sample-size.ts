import { fixed } from "../format.js";
import { zCritical } from "../stats/index.js";
import { kappaAt, unitKappaVariance, type CellShares } from "./kappa-linear.js";
import { expectedGateLabels, gateLowerBound } from "./simulate.js";

/**
 * How many random held-out labels a rubric needs, from the large-sample
 * variance at today's estimates: the gate passes when kappa's lower bound
 * kappa - z·sqrt(V/n) reaches the threshold k0 (V = n·var(kappa), Fleiss,
 * Cohen & Everitt 1969), so
 *
 *   n = z²·V / (kappa - k0)²
 *
 * (then raised, where the gate's goodness-of-fit half is wider, to the n at
 * which the gate's own interval on the expected table n·cells reaches k0),
 * and never below the gate's own minimums (`minLabels`, and `minPerClass`
 * of each answer at the labels' yes share c: minPerClass / min(c, 1 - c)).
 * A kappa at or below k0 can never pass by labelling more of the same; nor
 * can any kappa when n exceeds the held-out items there are, and then the
 * kappa it would need with every one of them labelled is given. The pass
 * rate's interval width follows the same way from PPI's variance (see
 * {@link ppiLabelsNeeded}).
 */

/** What the kappa planner reads. */
export interface KappaNeedInput {
  /** Today's cell shares of the gate's labels (weighted when the gate weights). */
  cells: CellShares;
  /** Gate labels so far. */
  n: number;
  kappaLower: number;
  minLabels: number;
  minPerClass: number;
  /** Held-out items in the frame (the most labels there can be). */
  population: number;
  level?: number;
}

/** The planner's answer for kappa. */
export interface KappaNeed {
  kappa: number | null;
  /** n·var(kappa) at the estimates (null: undefined there). */
  unitVariance: number | null;
  /** The labels the formula asks for in total (null: cannot or unknown). */
  total: number | null;
  /** total - n, at least 0. */
  further: number | null;
  /** The labels Fleiss, Cohen & Everitt's formula asks for, z²V/(kappa - k0)². */
  nFormula?: number;
  /**
   * The labels the interval rule asks for: the gate's own interval (with its
   * goodness-of-fit half, skewed below a high kappa) on the expected table
   * n·cells, at least `nFormula`; what the simulation checks.
   */
  nInterval?: number;
  /** Which condition sets `total`: the interval, minLabels or minPerClass. */
  bound: "interval" | "minLabels" | "minPerClass" | null;
  /** Set when it cannot pass: the kappa it would need (with every held-out item labelled), and why. */
  cannot?: { reason: string; kappaNeeded: number | null };
  /** Set when today's labels do not allow an estimate. */
  unknown?: string;
}

/** The smallest kappa whose lower bound reaches k0 with `n` labels at unit variance V (solved with V held at today's value). */
export function kappaNeededAt(k0: number, unitVariance: number, n: number, level = 0.95): number {
  return Math.min(1, k0 + zCritical(level) * Math.sqrt(unitVariance / Math.max(1, n)));
}

/**
 * The smallest kappa at which the gate's own interval (the one
 * `expectedGateLabels` reads) passes with `n` labels: today's table with
 * its disagreements shrunk (their share moved to the agreeing cells in
 * today's proportion) until the lower bound reaches `kappaLower`. Not the
 * asymptotic formula's `kappaNeededAt`: below a high kappa the gate's
 * interval is wider, and the formula named a kappa already exceeded while
 * saying it could not pass. Null when not even full agreement passes.
 */
function kappaPassingAt(cells: CellShares, kappaLower: number, n: number): number | null {
  const at = (t: number): CellShares => {
    const moved = (cells.fp + cells.fn) * (1 - t);
    const agree = cells.tp + cells.tn;
    const share = agree > 0 ? cells.tp / agree : 0.5;
    return { tp: cells.tp + moved * share, fp: cells.fp * t, fn: cells.fn * t, tn: cells.tn + moved * (1 - share) };
  };
  const passes = (t: number) => (gateLowerBound([[n * at(t).tp, n * at(t).fp], [n * at(t).fn, n * at(t).tn]]) ?? -1) >= kappaLower;
  if (!passes(0)) return null;
  let lo = 0, hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (passes(mid)) lo = mid;
    else hi = mid;
  }
  return kappaAt(at(lo));
}

/**
 * Labels needed for the gate's kappa rule (see the module comment).
 *
 * @example
 * kappaLabelsNeeded({ cells: { tp: 0.7, fp: 0.05, fn: 0.05, tn: 0.2 }, n: 20, kappaLower: 0.6, minLabels: 50, minPerClass: 10, population: 1000 }).further
 */
export function kappaLabelsNeeded(input: KappaNeedInput): KappaNeed {
  const level = input.level ?? 0.95;
  const z = zCritical(level);
  const kappa = kappaAt(input.cells);
  const v = unitKappaVariance(input.cells);
  const base = { kappa, unitVariance: v, total: null, further: null, bound: null } as const;
  if (input.n === 0) return { ...base, unknown: "no gate labels yet: nothing to estimate kappa from" };
  if (kappa === null || v === null) return { ...base, unknown: "the labels or the verdicts are all one answer so far: kappa's variance is not defined at today's estimates" };
  const c = input.cells.tp + input.cells.fn;
  const need = (k: number) => `${fixed(k)}`;
  if (kappa <= input.kappaLower) {
    const kn = kappaNeededAt(input.kappaLower, v, input.population, level);
    return { ...base, cannot: { reason: `cannot at kappa ${fixed(kappa)}: more labels narrow the interval around ${fixed(kappa)}, never above ${fixed(input.kappaLower)} (needs >= ${need(kn)} with all ${input.population} held-out items labelled)`, kappaNeeded: kn } };
  }
  const nFormula = Math.ceil((z * z * v) / (kappa - input.kappaLower) ** 2);
  const nInterval = Math.max(nFormula, expectedGateLabels(input.cells, input.kappaLower, Math.max(20 * nFormula, 1000)) ?? Infinity);
  // the rarer answer's share from its own cells, and rounded up past a last-bit error: 1 - 0.9 is 0.0999...98, and
  // 1 / that rounded up asked a 9 yes / 1 no table for an 11th label that the gate (counting 1 of each) did not need
  const minC = Math.min(c, input.cells.fp + input.cells.tn);
  const nClass = minC > 0 ? Math.ceil(input.minPerClass / minC - 1e-9) : Infinity;
  const total = Math.max(nInterval, input.minLabels, nClass);
  const bound = total === nInterval ? "interval" : total === input.minLabels ? "minLabels" : "minPerClass";
  if (total > input.population) {
    const kn = bound === "interval" ? kappaPassingAt(input.cells, input.kappaLower, input.population) : null;
    const why = bound === "interval"
      ? `cannot at kappa ${fixed(kappa)}: it needs ${Number.isFinite(total) ? total : "ever more"} labels but only ${input.population} held-out items exist (${kn === null ? "not even full agreement on all of them would pass" : `needs >= ${need(kn)} with all of them labelled`})`
      : `cannot: the gate needs ${total} labels (${bound === "minLabels" ? `minLabels ${input.minLabels}` : `${input.minPerClass} of each answer at a yes share of ${fixed(c)}`}) but only ${input.population} held-out items exist`;
    return { ...base, total, nFormula, nInterval, bound, cannot: { reason: why, kappaNeeded: bound === "interval" ? kn : null } };
  }
  return { ...base, total, nFormula, nInterval, further: Math.max(0, total - input.n), bound };
}

/** What the pass-rate width planner reads. */
export interface WidthNeedInput {
  /** Variance of the verdict (1 = yes) over all judged items, and how many there are. */
  verdictVariance: number;
  judged: number;
  /** Per-label variance of judge-minus-label (SRS), or (Σ W_h S_h)² for a Neyman design. */
  unitVariance: number;
  /** Target full width of the 95% interval. */
  width: number;
  n: number;
  population: number;
  level?: number;
}

/** The planner's answer for the pass rate's width. */
export interface WidthNeed {
  total: number | null;
  further: number | null;
  cannot?: string;
}

/**
 * Labels needed for PPI's interval to be at most `width` wide: PPI's
 * variance is var(f)/N + var(f - y)/n (Angelopoulos et al. 2023), so
 * n = var(f - y) / ((width/2z)² - var(f)/N); when the first term alone is
 * wider than the target no number of labels reaches it.
 */
export function ppiLabelsNeeded(input: WidthNeedInput): WidthNeed {
  const z = zCritical(input.level ?? 0.95);
  const half = input.width / 2 / z;
  const room = half * half - input.verdictVariance / Math.max(1, input.judged);
  if (!(room > 0)) return { total: null, further: null, cannot: `cannot: the ${input.judged} judged items alone give the interval a width of ${fixed(2 * z * Math.sqrt(input.verdictVariance / Math.max(1, input.judged)), 3)} or more (judge more items)` };
  const total = Math.max(2, Math.ceil(input.unitVariance / room));
  if (total > input.population) return { total, further: null, cannot: `cannot: it needs ${total} labels but only ${input.population} held-out items exist` };
  return { total, further: Math.max(0, total - input.n) };
}

/**
 * Labels for kappa's 95% interval to be at most `width` wide: n = z²·V/(width/2)²,
 * with V = n·var(kappa) under simple random sampling, or (Σ W_h S_h)² of the
 * linearised values under a Neyman-allocated stratified design.
 */
export function kappaWidthLabels(unitVariance: number, width: number, level = 0.95): number {
  const z = zCritical(level);
  return Math.max(2, Math.ceil((z * z * unitVariance) / (width / 2) ** 2));
}
