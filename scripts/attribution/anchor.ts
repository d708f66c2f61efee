/**
 * The token-overlap anchor: the simplest lexical judge worth beating, measured
 * beside the baseline in `npm run attribution:baseline`. A claim is supported
 * when at least a threshold share of its distinct tokens (lower-cased and
 * normalised by the baseline's tokeniser; stop words kept, nothing stemmed)
 * occurs in its references. The threshold is fitted, inside each
 * cross-validation fold, as the value of the 0.01 grid 0.30..1.00 with the
 * highest kappa on the training folds (the lower value on ties).
 */
import { cohenKappa, confusion, confusionTable } from "../../src/calibration/stats/index.js";
import { tokenise } from "../../src/judge/baseline/tokens.js";

/** Share of the claim's distinct tokens found among the references' tokens (1 for a claim without tokens). */
export function tokenOverlap(claim: string, references: readonly string[]): number {
  const c = new Set(tokenise(claim));
  if (c.size === 0) return 1;
  const r = new Set(references.flatMap((t) => tokenise(t)));
  let found = 0;
  for (const t of c) if (r.has(t)) found++;
  return found / c.size;
}

/** The threshold grid. */
export const OVERLAP_GRID: readonly number[] = Array.from({ length: 71 }, (_, i) => Math.round(30 + i) / 100);

/** The grid value with the highest kappa on these items (overlap, label). */
export function fitOverlapThreshold(items: readonly { overlap: number; label: "yes" | "no" }[]): number {
  let best = OVERLAP_GRID[0]!;
  let bestKappa = -Infinity;
  for (const t of OVERLAP_GRID) {
    const k = cohenKappa(confusionTable(confusion(items.map((i) => ({ judge: i.overlap >= t ? "yes" : "no", label: i.label }))))).kappa ?? -Infinity;
    if (k > bestKappa + 1e-12) {
      best = t;
      bestKappa = k;
    }
  }
  return best;
}
