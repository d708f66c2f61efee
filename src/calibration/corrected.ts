import type { GateItem, GroupPairing } from "./pairing.js";
import {
  ppiMean, PPI_MIN_LABELS, ROGAN_GLADEN_MIN_PER_CLASS, roganGladenBootstrap, wilsonInterval,
  type BootstrapOptions, type Interval, type LabelledVerdict, type PpiEstimate, type PpiLabelled, type RoganGladenEstimate,
} from "./stats/index.js";

/** A rubric's pass rate under one judge: raw, and corrected against people. */
export interface PassRates {
  rubric: string;
  fingerprint: string;
  /** Items with a yes/no verdict (errors excluded). */
  judged: number;
  /** Items whose verdict was an error: in neither the numerator nor the denominator. */
  errors: number;
  /** Share of "yes" among judged items, with its Wilson interval. */
  raw: { value: number | null; ci: Interval | null };
  /** Gate-eligible labelled items used by the corrections (judge errors left out). */
  labelled: number;
  roganGladen: RoganGladenEstimate;
  /** Why Rogan-Gladen's interval is not informative (too few labels of a class, or zero width), else null. */
  roganGladenUninformative: string | null;
  ppi: PpiEstimate;
  /** Why PPI's interval is not informative (too few labelled items, or zero width), else null. */
  ppiUninformative: string | null;
}

const zeroWidth = (ci: Interval | null) => ci !== null && ci.hi - ci.lo <= 1e-12;

/**
 * Why a correction says nothing while drawn items are unlabelled: the
 * corrections assume the labelled items are a random sample of the judged
 * ones, and a skipped item's label could move the estimate either way (the
 * gate counts it as a disagreement, which is conservative for kappa only).
 */
function skippedNote(skipped: number): string | null {
  return skipped > 0 ? `${skipped} drawn held-out item${skipped === 1 ? " has" : "s have"} no counting label, and ${skipped === 1 ? "its label" : "their labels"} could move it either way (label ${skipped === 1 ? "it" : "them"})` : null;
}

/** Reasons joined with ", and ", or null when there is none. */
function joined(...reasons: (string | null)[]): string | null {
  const present = reasons.filter((r): r is string => r !== null);
  return present.length ? present.join(", and ") : null;
}

/**
 * Why a PPI interval says nothing, or null: fewer labelled items than
 * {@link PPI_MIN_LABELS} (its normal interval rests on the rectifier's small
 * sample), drawn items left unlabelled (`skipped`), or zero width (every verdict and every judge-minus-label
 * difference the same: 9 agreeing labels of a yes-to-everything judge give
 * [1.000, 1.000]). The gate's kappa is flagged the same way.
 *
 * @example
 * ppiUninformative(ppiMean(ones, nineAgreeing)) // "only 9 labelled items (PPI needs 30), and its interval has zero width"
 */
export function ppiUninformative(ppi: Pick<PpiEstimate, "estimate" | "nLabelled" | "ci">, skipped = 0): string | null {
  if (ppi.estimate === null) return null;
  const few = ppi.nLabelled < PPI_MIN_LABELS ? `only ${ppi.nLabelled} labelled item${ppi.nLabelled === 1 ? "" : "s"} (PPI needs ${PPI_MIN_LABELS})` : null;
  const flat = zeroWidth(ppi.ci) ? "its interval has zero width (every verdict and every judge-minus-label difference is the same), not certainty" : null;
  return joined(few, flat, skippedNote(skipped));
}

/**
 * Why a Rogan-Gladen interval says nothing, or null: fewer than
 * {@link ROGAN_GLADEN_MIN_PER_CLASS} labels of either answer (TPR rests on
 * the labels "yes", TNR on the labels "no"), or zero width.
 */
export function roganGladenUninformative(rg: Pick<RoganGladenEstimate, "estimate" | "bootstrap">, labelled: readonly Pick<LabelledVerdict, "label">[], skipped = 0): string | null {
  if (rg.estimate === null) return null;
  const yes = labelled.filter((l) => l.label === 1).length;
  const no = labelled.length - yes;
  const few = Math.min(yes, no) < ROGAN_GLADEN_MIN_PER_CLASS ? `${yes} yes / ${no} no labels (Rogan-Gladen needs ${ROGAN_GLADEN_MIN_PER_CLASS} of each: TPR and TNR each rest on one answer)` : null;
  const flat = zeroWidth(rg.bootstrap.ci) ? "its interval has zero width, not certainty" : null;
  return joined(few, flat, skippedNote(skipped));
}

/**
 * The raw pass rate with its two corrections for the judge's errors,
 * estimated from the gate's labels only (uniform random frames, held-out
 * split when splits exist, inverse-inclusion weights for stratified frames):
 *
 * - Rogan-Gladen: (p + TNR - 1)/(TPR + TNR - 1), clipped to [0, 1], undefined
 *   when TPR + TNR <= 1, with a seeded bootstrap interval resampling labelled
 *   and unlabelled items;
 * - prediction-powered inference: mean verdict on all judged items minus the
 *   mean judge-minus-label difference on the labelled ones, with its normal
 *   interval.
 *
 * Error verdicts are left out of all three (a failed call is not a verdict).
 *
 * @example
 * const r = correctedPassRates(pairGroup(group, book), { seed: 1 });
 * r.raw.value, r.roganGladen.estimate, r.ppi.estimate
 */
/**
 * The gate's labelled items as the corrections take them: the judge's yes/no
 * against the label, with the item's weight and, in a weighted (stratified)
 * frame, its stratum. Items the judge failed on are left out (an error has no
 * yes/no to correct). One definition, so `calibrate` and the reports correct
 * the same pass rate the same way.
 */
export function labelledVerdicts(gate: readonly GateItem[], weighted: boolean): LabelledVerdict[] {
  const out: LabelledVerdict[] = [];
  for (const p of gate) {
    if (p.judged.verdict === "error") continue;
    const stratum = weighted ? p.stratum : undefined;
    out.push({ judge: p.judged.verdict === "yes" ? 1 : 0, label: p.label === "yes" ? 1 : 0, weight: p.weight, ...(stratum !== undefined ? { stratum } : {}) });
  }
  return out;
}

/** PPI's input from labelled verdicts (its field names differ). */
export function ppiLabels(labelled: readonly LabelledVerdict[]): PpiLabelled[] {
  return labelled.map((l) => ({ prediction: l.judge, label: l.label, weight: l.weight, ...(l.stratum !== undefined ? { stratum: l.stratum } : {}) }));
}

export function correctedPassRates(pairing: GroupPairing, options: BootstrapOptions = {}): PassRates {
  const { group } = pairing;
  const verdicts: (0 | 1)[] = [];
  let errors = 0;
  for (const it of group.items) {
    if (it.verdict === "error") errors++;
    else verdicts.push(it.verdict === "yes" ? 1 : 0);
  }
  const yes = verdicts.reduce<number>((s, v) => s + v, 0);
  const labelled = labelledVerdicts(pairing.gate, pairing.weighted);
  const level = options.level ?? 0.95;
  const roganGladen = roganGladenBootstrap(verdicts, labelled, options);
  const ppi = ppiMean(verdicts, ppiLabels(labelled), { level });
  return {
    rubric: group.rubric,
    fingerprint: group.fingerprint,
    judged: verdicts.length,
    errors,
    raw: { value: verdicts.length ? yes / verdicts.length : null, ci: wilsonInterval(yes, verdicts.length, level) },
    labelled: labelled.length,
    roganGladen,
    roganGladenUninformative: roganGladenUninformative(roganGladen, labelled, pairing.skipped.length),
    ppi,
    ppiUninformative: ppiUninformative(ppi, pairing.skipped.length),
  };
}
