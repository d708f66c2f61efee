import type { ConfidenceFigures, KappaFigure } from "./confidence.js";
import { fixed, fixedOrNa as num, interval as ci } from "./format.js";

/**
 * The confidence figures ({@link ConfidenceFigures}) as lines and a table,
 * the same for the calibration output (text and Markdown) and report.md:
 * ROC AUC with n of each class, ECE and Brier, the dev-chosen threshold's
 * held-out kappa beside the judge's own, and the reliability diagram's bins.
 */

/** What the renderers read: {@link ConfidenceFigures}, or report.json's copy of them. */
export type ConfidenceView = Omit<ConfidenceFigures, "threshold"> & {
  threshold: { dev: { threshold: number | null; kappa: number | null; n: number; reason?: string }; n: number; kappa: KappaFigure | null };
};

/** One line per figure; `ownKappa` is the gate's kappa of the judge's own verdicts, for comparison. */
export function confidenceLines(c: ConfidenceView, ownKappa: number | null): string[] {
  const a = c.auc;
  const r = c.reliability;
  const t = c.threshold;
  const lines = [`P(yes) on ${c.n} of ${c.of} gate labels${c.n < c.of ? " (the others' verdicts carry none)" : ""}`];
  lines.push(a.auc === null ? `ROC AUC    n/a (${a.reason})` : `ROC AUC    ${num(a.auc)} ${ci(a.ci)} (Hanley-McNeil; ${a.nYes} labelled yes, ${a.nNo} no${a.nYes < 30 || a.nNo < 30 ? ": few, so the interval is rough" : ""})`);
  lines.push(r.ece === null ? "ECE        n/a (no gate label with a P(yes))" : `ECE        ${fixed(r.ece, 3)}, Brier ${fixed(r.brier!, 3)} (${r.bins.length} equal-width bins, n ${r.n}${r.n < 100 ? ": noisy at this n, biased upwards" : ""})`);
  const d = t.dev;
  if (d.threshold === null) lines.push(`threshold  none chosen: ${d.reason} (it is chosen on dev labels only, never on held-out ones)`);
  else {
    const k = t.kappa;
    const held = k === null || k.kappa === null
      ? `n/a (${k?.reason ?? "no held-out label with a P(yes)"})`
      : k.uninformative ? `${num(k.kappa)}, CI not informative (${k.uninformative})` : `${num(k.kappa)} ${ci(k.ci)}`;
    lines.push(`threshold  P(yes) ≥ ${fixed(d.threshold, 3)} chosen on ${d.n} dev labels (dev kappa ${num(d.kappa)}); on ${t.n} held-out labels kappa ${held}, the judge's own verdicts ${num(ownKappa)}`);
  }
  return lines;
}

/** The reliability diagram as table rows (header first); empty bins left out. */
export function reliabilityRows(c: ConfidenceView): string[][] {
  return [["P(yes) bin", "n", "mean P(yes)", "share labelled yes"], ...c.reliability.bins.filter((b) => b.n > 0).map((b) => [
    `[${fixed(b.lo, 1)}, ${fixed(b.hi, 1)}${b.hi === 1 ? "]" : ")"}`, String(b.n), num(b.meanScore), num(b.observed),
  ])];
}
