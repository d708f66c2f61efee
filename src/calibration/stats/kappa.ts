import { normalSf, zCritical } from "./special.js";
import { checkTable, crossTable, marginals, type Interval, type Reasons, type Table } from "./types.js";

/** Cohen's kappa with its standard errors, interval and test. */
export interface CohenKappa {
  /** Number of items (or the effective number when weighted, see `options.n`). */
  n: number;
  /** Observed agreement p_o = Σ p_ii. */
  po: number | null;
  /** Chance agreement p_e = Σ p_i. p_.i. */
  pe: number | null;
  kappa: number | null;
  /** Large-sample standard error when kappa is not 0 (Fleiss, Cohen & Everitt 1969): used for the interval. */
  se: number | null;
  /** Standard error under H0: kappa = 0: used for the test. */
  se0: number | null;
  /** kappa ± z·se at `level`, clipped to [-1, 1]. */
  ci: Interval | null;
  level: number;
  /** kappa / se0. */
  z: number | null;
  /** Two-sided p-value of z. */
  p: number | null;
  /**
   * The index of the single category each rater gave to every item, or null
   * when that rater used two or more. When either is set (and kappa is
   * defined), kappa is 0 by convention and both variances are 0 by formula:
   * `ci` then has zero width without being certain, and there is no test.
   */
  constant: { rater1: number | null; rater2: number | null };
  reasons: Reasons<"po" | "pe" | "kappa" | "se" | "se0" | "ci" | "z" | "p">;
}

/** Options of {@link cohenKappa}. */
export interface KappaOptions {
  /** Confidence level of `ci` (default 0.95). */
  level?: number;
  /**
   * The sample size the standard errors use. Defaults to the table's total;
   * pass Kish's effective n when the cells are sums of weights.
   */
  n?: number;
}

/**
 * Cohen's kappa for two raters on a k x k table (Cohen 1960):
 *
 *   kappa = (p_o - p_e) / (1 - p_e),  p_o = Σ p_ii,  p_e = Σ p_i. p_.i
 *
 * Standard errors (Fleiss, Cohen & Everitt 1969, Psychol Bull 72:323-327;
 * Fleiss, Levin & Paik 2003, §18.1), with n items:
 *
 *   var(kappa) = [ Σ_i p_ii ((1 - p_e) - (p_.i + p_i.)(1 - p_o))²
 *                + (1 - p_o)² Σ_{i≠j} p_ij (p_.i + p_j.)²
 *                - (p_o p_e - 2 p_e + p_o)² ] / (n (1 - p_e)⁴)
 *   var0(kappa) = [ p_e + p_e² - Σ_i p_i. p_.i (p_i. + p_.i) ] / (n (1 - p_e)²)
 *
 * The interval uses the non-null `se` (and is clipped to kappa's range
 * [-1, 1]); the test z = kappa / se0 uses the null one. Both variances are
 * floored at 0 (rounding makes an analytic 0 slightly
 * negative when one rater is constant). These reproduce statsmodels
 * `cohens_kappa`, Stata `kap`/`kapci`, SAS PROC FREQ and R statpsych `ci.kappa`.
 *
 * Undefined cases are null with a reason: no items; p_e = 1 (both raters gave
 * one and the same label to every item, 0/0: kappa is undefined, not 1);
 * standard errors at n < 2. One constant rater gives kappa = 0, as it should;
 * it is detected from the cells (not from rounded proportions), so kappa,
 * se and se0 are then exactly 0 (never -0.00 or a z of 0/tiny), `ci` is
 * [0, 0] and `constant` says which rater it was: callers must show that
 * interval as not informative.
 *
 * @example
 * cohenKappa([[20, 5], [10, 15]]).kappa // 0.4 (Wikipedia's 50 grant proposals)
 */
export function cohenKappa(table: Table, options: KappaOptions = {}): CohenKappa {
  const level = options.level ?? 0.95;
  const total = checkTable(table);
  const n = options.n ?? total;
  const out: CohenKappa = { n, po: null, pe: null, kappa: null, se: null, se0: null, ci: null, level, z: null, p: null, constant: { rater1: null, rater2: null }, reasons: {} };
  const r = out.reasons;
  if (!(total > 0)) {
    for (const f of ["po", "pe", "kappa", "se", "se0", "ci", "z", "p"] as const) r[f] = "no items";
    return out;
  }
  const k = table.length;
  out.constant = constantRaters(table);
  const { rows, cols } = marginals(table, total);
  let po = 0;
  let pe = 0;
  for (let i = 0; i < k; i++) {
    po += table[i]![i]! / total;
    pe += rows[i]! * cols[i]!;
  }
  out.po = po;
  out.pe = pe;
  // p_e = 1 exactly when both raters used one and the same single category.
  if (pe >= 1 - 1e-15) {
    const why = "both raters gave the same single label to every item: chance agreement is 1, so kappa is 0/0 (undefined, not 1)";
    for (const f of ["kappa", "se", "se0", "ci", "z", "p"] as const) r[f] = why;
    return out;
  }
  const oneConstant = out.constant.rater1 !== null || out.constant.rater2 !== null;
  // One constant rater: p_o = p_e analytically, so kappa is exactly 0 (rounding would give ±1e-17).
  const kappa = oneConstant ? 0 : (po - pe) / (1 - pe);
  out.kappa = kappa;
  if (!(n >= 2)) {
    const why = `standard errors need at least 2 items (n = ${n})`;
    for (const f of ["se", "se0", "ci", "z", "p"] as const) r[f] = why;
    return out;
  }
  if (oneConstant) {
    // Both variances are 0 by formula; rounding would leave a tiny positive se0 and a meaningless z = 0, p = 1.
    out.se = 0;
    out.se0 = 0;
    out.ci = { lo: 0, hi: 0 };
    const why = "the standard error under kappa = 0 is 0 (one rater gave a single label): no test";
    r.z = why;
    r.p = why;
    return out;
  }

  let diag = 0;
  let off = 0;
  let nullSum = 0;
  for (let i = 0; i < k; i++) {
    const pii = table[i]![i]! / total;
    diag += pii * ((1 - pe) - (cols[i]! + rows[i]!) * (1 - po)) ** 2;
    nullSum += rows[i]! * cols[i]! * (rows[i]! + cols[i]!);
    for (let j = 0; j < k; j++) {
      if (i === j) continue;
      off += (table[i]![j]! / total) * (cols[i]! + rows[j]!) ** 2;
    }
  }
  const varNonNull = Math.max(0, (diag + (1 - po) ** 2 * off - (po * pe - 2 * pe + po) ** 2) / (n * (1 - pe) ** 4));
  const varNull = Math.max(0, (pe + pe * pe - nullSum) / (n * (1 - pe) ** 2));
  const se = Math.sqrt(varNonNull);
  const se0 = Math.sqrt(varNull);
  out.se = se;
  out.se0 = se0;
  const z = zCritical(level);
  out.ci = { lo: Math.max(-1, kappa - z * se), hi: Math.min(1, kappa + z * se) };
  if (se0 > 0) {
    out.z = kappa / se0;
    out.p = Math.min(1, 2 * normalSf(Math.abs(out.z)));
  } else {
    const why = "the standard error under kappa = 0 is 0 (one rater gave a single label): no test";
    r.z = why;
    r.p = why;
  }
  return out;
}

/** The single category index of each rater that used only one (a row or column holding every non-zero cell), else null. */
function constantRaters(table: Table): { rater1: number | null; rater2: number | null } {
  const k = table.length;
  const usedRows: number[] = [];
  const usedCols: number[] = [];
  for (let i = 0; i < k; i++) {
    let row = 0;
    let col = 0;
    for (let j = 0; j < k; j++) {
      row += table[i]![j]!;
      col += table[j]![i]!;
    }
    if (row > 0) usedRows.push(i);
    if (col > 0) usedCols.push(i);
  }
  return { rater1: usedRows.length === 1 ? usedRows[0]! : null, rater2: usedCols.length === 1 ? usedCols[0]! : null };
}

/**
 * Cohen's kappa from two raters' label lists (any comparable labels; pass
 * `categories` to fix the scale, for example `["yes", "no"]`).
 *
 * @example
 * cohenKappaOfRatings(["yes", "no", "yes"], ["yes", "no", "no"], ["yes", "no"]).kappa // 0.4
 */
export function cohenKappaOfRatings<T extends string | number>(
  rater1: readonly T[],
  rater2: readonly T[],
  categories?: readonly T[],
  options?: KappaOptions,
): CohenKappa {
  return cohenKappa(crossTable(rater1, rater2, categories).table, options);
}
