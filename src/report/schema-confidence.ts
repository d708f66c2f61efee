import { z } from "zod";
import type { ConfidenceFigures } from "../calibration/confidence.js";

/**
 * report.json's form of a rubric's verdict confidence
 * (src/calibration/confidence.ts): the gate items with a P(yes), ROC AUC
 * with its counts, the reliability diagram's bins with ECE and Brier, and
 * the dev-chosen threshold with its held-out kappa. The same fields as the
 * calibration's figures, so the calibration output and report.md render
 * both with one function.
 */

const Num = z.number().finite();
const NumOrNull = Num.nullable();
const Interval = z.object({ lo: Num, hi: Num }).nullable();
const Count = z.number().int().min(0);

export const ConfidenceJson = z.object({
  n: Count,
  of: Count,
  auc: z.object({ auc: NumOrNull, ci: Interval, level: Num, n: Count, nYes: Count, nNo: Count, reason: z.string().optional() }),
  reliability: z.object({
    bins: z.array(z.object({ lo: Num, hi: Num, n: Count, weight: Num, meanScore: NumOrNull, observed: NumOrNull })),
    n: Count,
    ece: NumOrNull,
    brier: NumOrNull,
  }),
  threshold: z.object({
    /** Chosen on dev labels only: the threshold, the dev kappa at it, the dev labels with a P(yes), or why none. */
    dev: z.object({ threshold: NumOrNull, kappa: NumOrNull, n: Count, reason: z.string().optional() }),
    /** Held-out (gate) labels it was applied to, and the kappa there. */
    n: Count,
    kappa: z.object({ kappa: NumOrNull, ci: Interval, uninformative: z.string().nullable(), reason: z.string().nullable() }).nullable(),
  }),
});
export type ConfidenceJson = z.infer<typeof ConfidenceJson>;

/** The figures as report.json carries them (a deep copy, so the report never shares objects with the calibration). */
export function confidenceJson(c: ConfidenceFigures | null): ConfidenceJson | null {
  if (c === null) return null;
  const typed: ConfidenceJson = c; // the compiler checks that the two shapes agree
  return structuredClone(typed);
}
