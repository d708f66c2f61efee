import type { PairedItem } from "./pairing.js";
import { bestThreshold, kappaAt, reliability, rocAuc, type ChosenThreshold, type Interval, type Reliability, type RocAuc, type ScoredItem } from "./stats/index.js";

/**
 * How well the judge's confidence (each verdict's P(yes): an LLM judge's
 * token log-probabilities, the baseline's support model) ranks and matches
 * people's labels, beside kappa: ROC AUC, a reliability diagram with the
 * expected calibration error, and the kappa of the best P(yes) threshold
 * chosen on the dev split and applied to the held-out split. Figures on
 * the gate's items (random, held-out, weighted as the gate weights them);
 * the threshold is never chosen on them.
 */

/** A kappa as the confidence figures carry it (plain data: report.json holds it as is). */
export interface KappaFigure {
  kappa: number | null;
  ci: Interval | null;
  /** Why the interval says nothing (the cut's verdicts or the labels all one answer), or null. */
  uninformative: string | null;
  /** Why kappa is null, or null. */
  reason: string | null;
}

/** The kappa of a threshold chosen on dev labels, measured on the gate's held-out labels. */
export interface DevThreshold {
  /** The choice on dev: the threshold, dev kappa at it, dev items with a P(yes) (or why none). */
  dev: ChosenThreshold;
  /** Held-out items it was applied to (the gate's, with a P(yes)). */
  n: number;
  /** Kappa of the verdicts P(yes) ≥ threshold on them; null without a threshold or held-out items. */
  kappa: KappaFigure | null;
}

/** Confidence figures of one rubric's judge (plain data); null on a calibration whose judge gave no P(yes) on any labelled item. */
export interface ConfidenceFigures {
  /** Gate items with a P(yes), of all gate items. */
  n: number;
  of: number;
  auc: RocAuc;
  reliability: Reliability;
  threshold: DevThreshold;
}

function scored(items: readonly PairedItem[], weighted: boolean): ScoredItem[] {
  const out: ScoredItem[] = [];
  for (const p of items) {
    const s = p.judged.pYes;
    if (s === undefined || p.judged.verdict === "error") continue;
    out.push({ score: s, label: p.label, ...(weighted ? { weight: p.weight } : {}) });
  }
  return out;
}

/**
 * The labelled items a threshold may be chosen on: those outside the
 * held-out split (no split is dev), of any frame. A held-out item is never
 * one, whatever frame put it in front of the labeller.
 */
export function devItems(other: readonly PairedItem[], heldout: string): PairedItem[] {
  return other.filter((p) => (p.split ?? "") !== heldout);
}

/**
 * The confidence figures of a calibration: on the gate's items (weighted
 * when the gate is), and the threshold chosen on `dev` (labelled items
 * outside the held-out split, of any frame: the choice may use any labels,
 * since it is measured on held-out ones only). Null when no gate or dev item
 * has a P(yes).
 *
 * @example
 * confidenceFigures(pairing.gate, devItems, pairing.weighted, 0.95)?.auc.auc
 */
export function confidenceFigures(gate: readonly PairedItem[], dev: readonly PairedItem[], weighted: boolean, level = 0.95): ConfidenceFigures | null {
  const held = scored(gate, weighted);
  const tune = scored(dev, false);
  if (held.length === 0 && tune.length === 0) return null;
  const chosen = bestThreshold(tune);
  let kappa: KappaFigure | null = null;
  if (chosen.threshold !== null && held.length > 0) {
    const k = kappaAt(held, chosen.threshold, level);
    const uninformative = k.kappa === null ? null : k.constant.rater1 !== null ? "the cut's verdicts are all one answer" : k.constant.rater2 !== null ? "the labels are all one answer" : null;
    kappa = { kappa: k.kappa, ci: k.ci, uninformative, reason: k.reasons.kappa ?? null };
  }
  return {
    n: held.length,
    of: gate.length,
    auc: rocAuc(held, level),
    reliability: reliability(held),
    threshold: { dev: chosen, n: held.length, kappa },
  };
}
