import { binomialHalfCdf, chiSquareSf } from "./special.js";
import type { Reasons, Table } from "./types.js";

/** McNemar's test of paired proportions. */
export interface McNemar {
  /** Discordant pairs: first yes / second no. */
  b: number;
  /** Discordant pairs: first no / second yes. */
  c: number;
  /** (b - c)² / (b + c). */
  chi2: number | null;
  p: number | null;
  /** Edwards' continuity-corrected (max(0, |b - c| - 1))² / (b + c). */
  chi2Corrected: number | null;
  pCorrected: number | null;
  /** Exact two-sided binomial p: min(1, 2 · P(X <= min(b, c))), X ~ Bin(b + c, 1/2). */
  pExact: number;
  /** Which p to report: the exact one below 25 discordant pairs, else Edwards'. */
  recommended: "exact" | "corrected";
  /** The recommended p-value. */
  pRecommended: number;
  reasons: Reasons<"chi2" | "p" | "chi2Corrected" | "pCorrected">;
}

/** Below this many discordant pairs the exact binomial test is the one to read. */
export const MCNEMAR_EXACT_BELOW = 25;

/**
 * McNemar's test (McNemar 1947, Psychometrika 12:153-157) on the discordant
 * counts b and c of a paired 2x2 table `[[a, b], [c, d]]`:
 *
 * - uncorrected: chi² = (b - c)²/(b + c), 1 df;
 * - Edwards' continuity correction (Edwards 1948): chi² = (max(0, |b - c| - 1))²/(b + c)
 *   (floored at 0 so b = c gives chi² = 0, p = 1; R's `mcnemar.test` gives the same);
 * - exact: two-sided binomial p = min(1, 2 P(X <= min(b, c))), X ~ Bin(b + c, 1/2)
 *   (statsmodels `mcnemar(exact=True)`).
 *
 * p-values come from an incomplete-gamma chi-square tail accurate to ~1e-15.
 * With no discordant pair the chi-square forms are 0/0 (null); the exact p is 1.
 *
 * @example
 * mcnemar([[101, 121], [59, 33]]).p // 3.815135865e-6
 */
export function mcnemar(table: Table): McNemar {
  if (table.length !== 2 || table[0]!.length !== 2 || table[1]!.length !== 2) throw new RangeError("McNemar's test needs a 2x2 table");
  return mcnemarCounts(table[0]![1]!, table[1]![0]!);
}

/** McNemar's test from the discordant counts alone. */
export function mcnemarCounts(b: number, c: number): McNemar {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`discordant counts must be integers >= 0, got ${b}, ${c}`);
  const n = b + c;
  const pExact = Math.min(1, 2 * binomialHalfCdf(Math.min(b, c), n));
  const recommended = n < MCNEMAR_EXACT_BELOW ? "exact" : "corrected";
  const out: McNemar = {
    b, c, chi2: null, p: null, chi2Corrected: null, pCorrected: null, pExact,
    recommended, pRecommended: pExact, reasons: {},
  };
  if (n === 0) {
    const why = "no discordant pairs: the chi-square statistic is 0/0";
    out.reasons = { chi2: why, p: why, chi2Corrected: why, pCorrected: why };
    return out;
  }
  out.chi2 = (b - c) ** 2 / n;
  out.p = chiSquareSf(out.chi2, 1);
  out.chi2Corrected = Math.max(0, Math.abs(b - c) - 1) ** 2 / n;
  out.pCorrected = chiSquareSf(out.chi2Corrected, 1);
  if (recommended === "corrected") out.pRecommended = out.pCorrected;
  return out;
}
