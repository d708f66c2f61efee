import type { GroupPairing, PairedItem } from "./pairing.js";
import {
  ppiMean, roganGladenBootstrap, wilsonInterval,
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
  ppi: PpiEstimate;
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
export function labelledVerdicts(gate: readonly PairedItem[], weighted: boolean): LabelledVerdict[] {
  const out: LabelledVerdict[] = [];
  for (const p of gate) {
    if (p.judged.verdict === "error") continue;
    const stratum = weighted ? p.labelled.random?.value.stratum : undefined;
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
  return {
    rubric: group.rubric,
    fingerprint: group.fingerprint,
    judged: verdicts.length,
    errors,
    raw: { value: verdicts.length ? yes / verdicts.length : null, ci: wilsonInterval(yes, verdicts.length, level) },
    labelled: labelled.length,
    roganGladen: roganGladenBootstrap(verdicts, labelled, options),
    ppi: ppiMean(verdicts, ppiLabels(labelled), { level }),
  };
}
