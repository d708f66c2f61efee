import type { Reasons } from "./types.js";

/** Fleiss' kappa for several raters. */
export interface FleissKappa {
  /** Subjects used (those with at least two ratings). */
  subjects: number;
  /** Mean observed agreement P̄. */
  pBar: number | null;
  /** Chance agreement P̄_e = Σ_j p_j². */
  pe: number | null;
  kappa: number | null;
  reasons: Reasons<"pBar" | "pe" | "kappa">;
}

/**
 * Fleiss' kappa (Fleiss 1971, Psychol Bull 76:378-382) from a subjects x
 * categories table of counts (cell = how many raters put that subject in
 * that category):
 *
 *   P_i = Σ_j n_ij (n_ij - 1) / (n_i (n_i - 1)),   P̄ = mean_i P_i
 *   p_j = Σ_i n_ij / Σ_i n_i,   P̄_e = Σ_j p_j²,   kappa = (P̄ - P̄_e)/(1 - P̄_e)
 *
 * With the same number of raters for every subject this is Fleiss' formula
 * exactly. When some raters skipped some subjects (n_i varies) the same
 * per-subject agreement and pooled category shares are used, and subjects
 * with fewer than two ratings are left out; Krippendorff's alpha is the
 * better-founded figure for missing ratings and is reported beside it.
 * Undefined (null) with no usable subject or when every rating falls in one
 * category (P̄_e = 1).
 *
 * @example
 * fleissKappa([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2]]).kappa
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissKappa {
  const out: FleissKappa = { subjects: 0, pBar: null, pe: null, kappa: null, reasons: {} };
  const k = counts[0]?.length ?? 0;
  let sumP = 0;
  const catTotals = new Array<number>(k).fill(0);
  let ratings = 0;
  for (const row of counts) {
    if (row.length !== k) throw new RangeError(`every subject needs ${k} category counts, got ${row.length}`);
    let ni = 0;
    for (const v of row) {
      if (!Number.isInteger(v) || v < 0) throw new RangeError(`counts must be integers >= 0, got ${v}`);
      ni += v;
    }
    if (ni < 2) continue;
    let agree = 0;
    for (let j = 0; j < k; j++) {
      agree += row[j]! * (row[j]! - 1);
      catTotals[j]! += row[j]!;
    }
    sumP += agree / (ni * (ni - 1));
    ratings += ni;
    out.subjects++;
  }
  if (out.subjects === 0) {
    out.reasons = { pBar: "no subject with at least two ratings", pe: "no subject with at least two ratings", kappa: "no subject with at least two ratings" };
    return out;
  }
  out.pBar = sumP / out.subjects;
  out.pe = catTotals.reduce((s, t) => s + (t / ratings) ** 2, 0);
  if (out.pe >= 1 - 1e-15) {
    out.reasons.kappa = "every rating is the same category: chance agreement is 1, so kappa is 0/0";
    return out;
  }
  out.kappa = (out.pBar - out.pe) / (1 - out.pe);
  return out;
}

/**
 * Builds the subjects x categories counts table from raters x subjects
 * ratings with `null` for a missing rating.
 *
 * @example
 * countsFromRatings([["yes", "no"], ["yes", null]], ["yes", "no"]) // [[2, 0], [0, 1]]
 */
export function countsFromRatings<T extends string | number>(
  ratings: readonly (readonly (T | null)[])[],
  categories: readonly T[],
): number[][] {
  const index = new Map<T, number>(categories.map((c, i) => [c, i]));
  const subjects = ratings[0]?.length ?? 0;
  const counts = Array.from({ length: subjects }, () => new Array<number>(categories.length).fill(0));
  for (const rater of ratings) {
    if (rater.length !== subjects) throw new RangeError("every rater needs one entry per subject (null when missing)");
    rater.forEach((v, s) => {
      if (v === null) return;
      const j = index.get(v);
      if (j === undefined) throw new RangeError(`rating ${String(v)} is not among the categories`);
      counts[s]![j]!++;
    });
  }
  return counts;
}
