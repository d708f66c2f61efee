import { kappaLabelsNeeded } from "../calibration/plan/sample-size.js";
import type { RubricJson } from "./schema.js";

/**
 * Why more labels cannot make an untrusted rubric trusted at its judge's
 * present agreement, or null while they still can. Two cases: every judged
 * held-out item already counts as a gate label (a new draw would queue
 * nothing), or `ragjudge plan`'s kappa planner says "cannot at kappa ..."
 * (kappa at or below the threshold, or more labels needed than there are
 * held-out items). The reason is the planner's own sentence, so the run's
 * Next lines and `plan` say the same thing in the same words. A rubric with
 * too few held-out items for `minLabels` is not this case (the run points
 * to more questions instead), nor is one with no gate labels yet.
 *
 * @example
 * labellingExhausted(rubric) // "cannot at kappa 0.40: it needs 67 labels but only 9 held-out items exist (needs >= 0.84 with all of them labelled)"
 */
export function labellingExhausted(r: Pick<RubricJson, "trust" | "calibration">): string | null {
  const t = r.trust;
  if (t.trusted || t.heldoutItems === undefined || t.n === 0) return null;
  // Author labels never count as evidence: people's labels of the same items can still make it trusted.
  if (t.reason === "author-labels" || t.reason === "incomplete-draw") return null;
  // Drawn items left unlabelled count as disagreements: labelling them can only help.
  if (r.calibration?.skipped) return null;
  const m = r.calibration?.confusion;
  const total = m ? m.tp + m.fn + m.fp + m.tn : 0;
  // The planner's "cannot at kappa" reads the point estimate: on fewer labels than the gate needs that is noise
  // (8 labels at kappa 0.50 do not show a judge cannot pass), so it speaks only from minLabels gate labels on.
  if (m && total > 0 && t.n >= t.thresholds.minLabels) {
    const need = kappaLabelsNeeded({
      cells: { tp: m.tp / total, fp: m.fp / total, fn: m.fn / total, tn: m.tn / total },
      n: t.n, kappaLower: t.thresholds.kappaLower, minLabels: t.thresholds.minLabels, minPerClass: t.thresholds.minPerClass, population: t.heldoutItems,
    });
    // kappaNeeded is set only when kappa itself is the obstacle (not minLabels or minPerClass against too few items)
    if (need.cannot && need.cannot.kappaNeeded !== null) return need.cannot.reason;
  }
  // Every held-out item labelled but short of minPerClass of an answer: more questions would help, not a new judge.
  if (t.n >= t.heldoutItems && t.reason !== "too-few-labels") {
    return `every one of its ${t.heldoutItems} held-out judged items is labelled already${t.kappa !== null ? ` and kappa is ${t.kappa.toFixed(2)}` : ""}`;
  }
  return null;
}
