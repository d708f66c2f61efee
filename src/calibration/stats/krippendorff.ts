import type { Reasons } from "./types.js";

/** Krippendorff's alpha (nominal) with its parts. */
export interface KrippendorffAlpha {
  /** Pairable values: the number of values in units with at least two values. */
  nPairable: number;
  /** Units with at least two values. */
  units: number;
  /** Observed disagreement D_o. */
  dObserved: number | null;
  /** Expected disagreement D_e. */
  dExpected: number | null;
  alpha: number | null;
  reasons: Reasons<"dObserved" | "dExpected" | "alpha">;
}

/**
 * Krippendorff's alpha for nominal data with missing values (Krippendorff
 * 2011, "Computing Krippendorff's Alpha-Reliability", Annenberg School,
 * section C), from a raters x units matrix with `null` for a missing value.
 * Through the coincidence matrix o_ck = Σ_u (number of c-k pairs in u)/(m_u - 1):
 *
 *   n_c = Σ_k o_ck,  n = Σ_c n_c
 *   D_o = Σ_{c≠k} o_ck / n,   D_e = Σ_{c≠k} n_c n_k / (n (n - 1)),   alpha = 1 - D_o/D_e
 *
 * Units with fewer than two values are unpairable and dropped. Undefined
 * (null) with no pairable unit, or when every value is the same (D_e = 0).
 *
 * @example
 * krippendorffAlphaNominal([["yes", "no", null], ["yes", "no", "yes"]]).alpha // 1
 */
export function krippendorffAlphaNominal<T extends string | number>(matrix: readonly (readonly (T | null)[])[]): KrippendorffAlpha {
  const out: KrippendorffAlpha = { nPairable: 0, units: 0, dObserved: null, dExpected: null, alpha: null, reasons: {} };
  const units = matrix[0]?.length ?? 0;
  for (const row of matrix) if (row.length !== units) throw new RangeError("every rater needs one entry per unit (null when missing)");
  // n_c per value (keyed on type and string form) and the off-diagonal coincidence total.
  const values = new Map<string, number>();
  let disagree = 0;
  for (let u = 0; u < units; u++) {
    const vals: string[] = [];
    for (const row of matrix) {
      const v = row[u];
      if (v !== null && v !== undefined) vals.push(typeof v + ":" + String(v));
    }
    const m = vals.length;
    if (m < 2) continue;
    out.units++;
    out.nPairable += m;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        const w = 1 / (m - 1);
        values.set(vals[i]!, (values.get(vals[i]!) ?? 0) + w);
        if (vals[i] !== vals[j]) disagree += w;
      }
    }
  }
  const n = out.nPairable;
  if (n === 0) {
    out.reasons = { dObserved: "no unit with two or more values", dExpected: "no unit with two or more values", alpha: "no unit with two or more values" };
    return out;
  }
  out.dObserved = disagree / n;
  let expected = 0;
  const totals = [...values.values()];
  for (let i = 0; i < totals.length; i++) {
    for (let j = 0; j < totals.length; j++) if (i !== j) expected += totals[i]! * totals[j]!;
  }
  out.dExpected = expected / (n * (n - 1));
  if (out.dExpected === 0) {
    out.reasons.alpha = "every value is the same: expected disagreement is 0, so alpha is 0/0";
    return out;
  }
  out.alpha = 1 - out.dObserved / out.dExpected;
  return out;
}
