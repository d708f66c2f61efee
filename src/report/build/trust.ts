import { displayPath } from "../../golden/errors.js";
import { describeBasis, type LabelBasis } from "../../calibration/basis.js";
import type { RubricCalibration } from "../../calibration/calibrate.js";
import type { DrawStatus } from "../../calibration/pairing.js";
import { confidenceJson } from "../schema-confidence.js";
import type { CalibrationJson, DrawJson, RubricJson, TrustJson } from "../schema.js";

/**
 * The trust part of a rubric's report entry, from this run's calibration:
 * the state decided by the one gate (src/calibration/trust.ts) with what it
 * rests on, the draws and their coverage, and the agreement figures.
 */

const NO_BASIS: LabelBasis = { human: 0, author: 0, import: 0, mixed: 0, sources: [] };

/** A draw's status as report.json carries it. */
export function drawJson(d: DrawStatus): DrawJson {
  return {
    id: d.id, annotator: d.annotator, covers: d.covers, why: d.why ?? null, drawn: d.drawn, labelled: d.labelled,
    coverage: d.coverage, counts: d.counts, skipP: d.skipTest?.p ?? null, skipsLean: d.skipTest?.leaning ?? false,
  };
}

/** The trust state of a rubric entry (rule-only rubrics are exact and need no calibration). */
export function trustJson(cal: RubricCalibration | undefined, heldout: string): TrustJson {
  const labels = cal?.basis ?? NO_BASIS;
  const n = cal?.gate.n ?? 0;
  const basis = n > 0 ? describeBasis(n, labels) : "no labels";
  if (!cal) {
    return {
      trusted: true,
      reason: null,
      message: "decided by rule only: no judge verdict to calibrate (rule verdicts are exact)",
      kappa: null, ci: null, n: 0,
      thresholds: { minLabels: 0, minPerClass: 0, kappaLower: 0 },
      basis, labels: { ...labels, sources: [...labels.sources] }, heldout, declared: 0, draws: [], notes: [],
    };
  }
  const t = cal.trust;
  return {
    trusted: t.trusted,
    reason: t.reason ?? null,
    message: t.message,
    kappa: t.kappa,
    ci: t.ci,
    n: t.n,
    thresholds: { minLabels: t.thresholds.minLabels, minPerClass: t.thresholds.minPerClass, kappaLower: t.thresholds.kappaLower, minCoverage: t.thresholds.minCoverage },
    basis,
    labels: { ...labels, sources: [...labels.sources] },
    heldout: t.heldout,
    ...(t.authorFiles.length ? { authorFiles: t.authorFiles.map(displayPath) } : {}),
    ...(cal.heldoutItems !== null ? { heldoutItems: cal.heldoutItems } : {}),
    declared: t.declared,
    ...(t.labelsPass ? { labelsPass: t.labelsPass } : {}),
    draws: t.draws.map(drawJson),
    notes: [...new Set([...t.notes, ...cal.warnings])],
  };
}

/** The gate's agreement figures of a rubric entry, or null without labels. */
export function calibrationJson(cal: RubricCalibration | undefined, record: string | undefined): RubricJson["calibration"] {
  if (!cal || !cal.hasLabels || !record) return null;
  const g = cal.gate;
  const out: CalibrationJson = {
    n: g.n,
    labelYes: g.labelYes,
    labelNo: g.labelNo,
    judgeErrors: g.judgeErrors,
    skipped: g.skipped,
    confusion: { ...g.confusion },
    agreement: g.rates.agreement,
    tpr: g.rates.tpr,
    tnr: g.rates.tnr,
    kappa: g.kappa.kappa,
    kappaCi: cal.trust.ci,
    asymptoticCi: g.kappa.ci,
    bootstrapCi: g.bootstrap?.ci ?? null,
    confidence: confidenceJson(cal.confidence),
    record,
  };
  return out;
}
