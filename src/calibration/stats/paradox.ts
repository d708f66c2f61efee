import { zCritical } from "./special.js";
import { checkTable, marginals, type Interval, type Reasons, type Table } from "./types.js";

/**
 * The figures that expose the kappa paradox (high agreement, low kappa under
 * skewed prevalence or rater bias): Byrt, Bishop & Carlin's indices and
 * PABAK, and Gwet's AC1.
 */
export interface ParadoxFigures {
  n: number;
  /** Prevalence index (a - d)/n, signed (2x2 only). */
  prevalenceIndex: number | null;
  /** Bias index (b - c)/n, signed (2x2 only). */
  biasIndex: number | null;
  /** Prevalence- and bias-adjusted kappa (k p_o - 1)/(k - 1); 2 p_o - 1 for yes/no. */
  pabak: number | null;
  reasons: Reasons<"prevalenceIndex" | "biasIndex" | "pabak">;
}

/**
 * Prevalence index PI = (a - d)/n, bias index BI = (b - c)/n and
 * PABAK = 2 p_o - 1 (Byrt, Bishop & Carlin 1993, J Clin Epidemiol 46:423-429),
 * with a = both yes, b = rater 1 yes / rater 2 no, c = rater 1 no / rater 2
 * yes, d = both no. PI and BI are signed (several papers report |PI|, |BI|);
 * Byrt's identity kappa = (PABAK - PI² + BI²)/(1 - PI² + BI²) holds either
 * way. For k categories PABAK = (k p_o - 1)/(k - 1) and PI, BI are null.
 *
 * @example
 * paradoxFigures([[95, 4], [1, 0]]) // { prevalenceIndex: 0.95, biasIndex: 0.03, pabak: 0.9, ... }
 */
export function paradoxFigures(table: Table): ParadoxFigures {
  const n = checkTable(table);
  const out: ParadoxFigures = { n, prevalenceIndex: null, biasIndex: null, pabak: null, reasons: {} };
  if (!(n > 0)) {
    out.reasons = { prevalenceIndex: "no items", biasIndex: "no items", pabak: "no items" };
    return out;
  }
  const k = table.length;
  let po = 0;
  for (let i = 0; i < k; i++) po += table[i]![i]! / n;
  out.pabak = (k * po - 1) / (k - 1);
  if (k === 2) {
    const [[a, b], [c, d]] = table as [[number, number], [number, number]];
    out.prevalenceIndex = (a - d) / n;
    out.biasIndex = (b - c) / n;
  } else {
    out.reasons.prevalenceIndex = "defined for two categories only";
    out.reasons.biasIndex = "defined for two categories only";
  }
  return out;
}

/** Gwet's AC1 with its chance agreement, standard error and interval. */
export interface GwetAc1 {
  n: number;
  /** Observed agreement. */
  pa: number | null;
  /** Gwet's chance agreement Σ π_k(1 - π_k)/(q - 1). */
  pe: number | null;
  ac1: number | null;
  se: number | null;
  ci: Interval | null;
  level: number;
  reasons: Reasons<"pa" | "pe" | "ac1" | "se" | "ci">;
}

/**
 * Gwet's first-order agreement coefficient for two raters on a q x q table
 * (Gwet 2008, Br J Math Stat Psychol 61:29-48):
 *
 *   AC1 = (p_a - p_e)/(1 - p_e),  p_e = Σ_k π_k (1 - π_k)/(q - 1),
 *   π_k = (p_k. + p_.k)/2
 *
 * with the variance of Gwet (2008, eq. 7) for an infinite population
 * (as irrCAC `gwet.ac1.table` with N = Inf):
 *
 *   var = [ p_a(1 - p_a) - 4(1 - AC1)(Σ_k p_kk(1 - π_k)/(q - 1) - p_a p_e)
 *         + 4(1 - AC1)² (Σ_k Σ_l p_kl (1 - (π_k + π_l)/2)²/(q - 1)² - p_e²) ] / (n (1 - p_e)²)
 *
 * floored at 0. Unlike kappa, AC1 stays defined when both raters are
 * constant (p_e = 0 then). `q` is the table's number of categories, so pass
 * the full yes/no table even when one class is empty.
 *
 * @example
 * gwetAc1([[20, 5], [10, 15]]).ac1 // 0.40594...
 */
export function gwetAc1(table: Table, options: { level?: number; n?: number } = {}): GwetAc1 {
  const level = options.level ?? 0.95;
  const total = checkTable(table);
  const n = options.n ?? total;
  const out: GwetAc1 = { n, pa: null, pe: null, ac1: null, se: null, ci: null, level, reasons: {} };
  const q = table.length;
  if (!(total > 0) || q < 2) {
    const why = total > 0 ? "needs at least two categories" : "no items";
    out.reasons = { pa: why, pe: why, ac1: why, se: why, ci: why };
    return out;
  }
  const { rows, cols } = marginals(table, total);
  const pi = rows.map((r, k) => (r + cols[k]!) / 2);
  let pa = 0;
  let pe = 0;
  for (let k = 0; k < q; k++) {
    pa += table[k]![k]! / total;
    pe += (pi[k]! * (1 - pi[k]!)) / (q - 1);
  }
  out.pa = pa;
  out.pe = pe;
  // p_e <= 1/q < 1 always, so AC1 is defined whenever there are items.
  const ac1 = (pa - pe) / (1 - pe);
  out.ac1 = ac1;
  if (!(n >= 2)) {
    out.reasons.se = `standard errors need at least 2 items (n = ${n})`;
    out.reasons.ci = out.reasons.se;
    return out;
  }
  let diagTerm = 0;
  let pairTerm = 0;
  for (let k = 0; k < q; k++) {
    diagTerm += (table[k]![k]! / total) * (1 - pi[k]!);
    for (let l = 0; l < q; l++) pairTerm += (table[k]![l]! / total) * (1 - (pi[k]! + pi[l]!) / 2) ** 2;
  }
  diagTerm /= q - 1;
  pairTerm /= (q - 1) ** 2;
  const v =
    (pa * (1 - pa) - 4 * (1 - ac1) * (diagTerm - pa * pe) + 4 * (1 - ac1) ** 2 * (pairTerm - pe * pe)) / (n * (1 - pe) ** 2);
  const se = Math.sqrt(Math.max(0, v));
  out.se = se;
  const z = zCritical(level);
  out.ci = { lo: Math.max(-1, ac1 - z * se), hi: Math.min(1, ac1 + z * se) };
  return out;
}
