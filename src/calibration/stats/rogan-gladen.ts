import type { RandomGenerator } from "pure-rand";
import { bootstrapReplicates, noBootstrap, resampleIndices, type BootstrapInterval, type BootstrapOptions } from "./bootstrap.js";
import { fixed } from "../format.js";

/** A Rogan-Gladen corrected prevalence. */
export interface RoganGladen {
  /** Clipped to [0, 1]; null when TPR + TNR <= 1. */
  estimate: number | null;
  /** Before clipping (can fall outside [0, 1] by sampling error). */
  unclipped: number | null;
  clipped: boolean;
  /** Youden's J = TPR + TNR - 1 (null when TPR or TNR is unknown). */
  youden: number | null;
  reason?: string;
}

/**
 * Rogan & Gladen (1978, Am J Epidemiol 107:71-76) correction of an apparent
 * rate p for a classifier with known sensitivity (TPR) and specificity (TNR):
 *
 *   true rate = (p + TNR - 1) / (TPR + TNR - 1)
 *
 * clipped to [0, 1]. Undefined (null) when TPR + TNR <= 1: a judge no better
 * than a coin says nothing about the true rate, and the formula would divide
 * by zero or flip sign. Here p is the judge's pass rate and "positive" is a
 * "yes" verdict.
 *
 * @example
 * roganGladen(23 / 150, 0.96, 0.89).estimate // 0.05098 (epiR epi.prev example)
 */
export function roganGladen(apparent: number, tpr: number, tnr: number): RoganGladen {
  const youden = tpr + tnr - 1;
  if (!(youden > 0)) {
    return { estimate: null, unclipped: null, clipped: false, youden, reason: `TPR + TNR = ${fixed(tpr + tnr, 3)} <= 1: the judge does not separate pass from fail, so no correction is possible` };
  }
  const unclipped = (apparent + tnr - 1) / youden;
  const estimate = Math.min(1, Math.max(0, unclipped));
  return { estimate, unclipped, clipped: estimate !== unclipped, youden };
}

/**
 * Standard error of the Rogan-Gladen estimate treating TPR and TNR as known:
 * sqrt(p(1 - p)/n) / (TPR + TNR - 1) (Rogan & Gladen 1978; as epiR's
 * `epi.prev`). It ignores the uncertainty of TPR and TNR, which is why
 * ragjudge reports the bootstrap interval of {@link roganGladenBootstrap}.
 */
export function roganGladenKnownSe(apparent: number, n: number, tpr: number, tnr: number): number | null {
  const youden = tpr + tnr - 1;
  if (!(youden > 0) || !(n > 0)) return null;
  return Math.sqrt((apparent * (1 - apparent)) / n) / youden;
}

/** One labelled item for the correction: judge verdict and label as 1 (yes) / 0 (no), with a weight and its stratum. */
export interface LabelledVerdict {
  judge: 0 | 1;
  label: 0 | 1;
  weight?: number;
  /** Stratum of a stratified frame: the bootstrap resamples within strata. */
  stratum?: string;
}

/**
 * One bootstrap draw of the labelled items: n with replacement, or, when the
 * items carry strata, n_h within each stratum h (the design drew a fixed
 * number per stratum, so a resample must too).
 */
function resampleLabelled(rng: RandomGenerator, strata: readonly number[][] | null, n: number): Uint32Array {
  if (!strata) return resampleIndices(rng, n);
  const out = new Uint32Array(n);
  let k = 0;
  for (const members of strata) {
    for (const i of resampleIndices(rng, members.length)) out[k++] = members[i]!;
  }
  return out;
}

/** Rogan-Gladen from data, with the bootstrap interval. */
export interface RoganGladenEstimate extends RoganGladen {
  apparent: number | null;
  tpr: number | null;
  tnr: number | null;
  bootstrap: BootstrapInterval;
}

function tprTnr(labelled: readonly LabelledVerdict[], idx?: Uint32Array): { tpr: number | null; tnr: number | null } {
  let tp = 0, pos = 0, tn = 0, neg = 0;
  const count = idx ? idx.length : labelled.length;
  for (let i = 0; i < count; i++) {
    const l = labelled[idx ? idx[i]! : i]!;
    const w = l.weight ?? 1;
    if (l.label === 1) {
      pos += w;
      if (l.judge === 1) tp += w;
    } else {
      neg += w;
      if (l.judge === 0) tn += w;
    }
  }
  return { tpr: pos > 0 ? tp / pos : null, tnr: neg > 0 ? tn / neg : null };
}

/**
 * The Rogan-Gladen corrected pass rate from data: the apparent rate from all
 * judged items (`verdicts`, 1 = yes), TPR and TNR from the labelled ones
 * (weighted by inverse inclusion probability when given), and a seeded
 * percentile bootstrap interval that resamples both the labelled and the
 * unlabelled items in every replicate (the labelled ones within their
 * strata when a stratified frame drew them), so the interval carries the
 * uncertainty of TPR and TNR too. Replicates where TPR + TNR <= 1 (or a
 * class is missing) are dropped and counted.
 *
 * @example
 * roganGladenBootstrap(verdicts, labelled, { seed: 1 }).bootstrap.ci
 */
export function roganGladenBootstrap(
  verdicts: readonly (0 | 1)[],
  labelled: readonly LabelledVerdict[],
  options: BootstrapOptions = {},
): RoganGladenEstimate {
  const N = verdicts.length;
  let yes = 0;
  for (const v of verdicts) yes += v;
  const apparent = N > 0 ? yes / N : null;
  const { tpr, tnr } = tprTnr(labelled);
  if (apparent === null || tpr === null || tnr === null) {
    const reason = apparent === null ? "no judged items" : labelled.length === 0 ? "no labelled items, so TPR and TNR are unknown" : tpr === null ? "no labelled item is yes, so TPR is unknown" : "no labelled item is no, so TNR is unknown";
    return { estimate: null, unclipped: null, clipped: false, youden: null, reason, apparent, tpr, tnr, bootstrap: noBootstrap(reason, options) };
  }
  const point = roganGladen(apparent, tpr, tnr);
  let strata: number[][] | null = null;
  if (labelled.some((l) => l.stratum !== undefined)) {
    const by = new Map<string, number[]>();
    labelled.forEach((l, i) => {
      const h = l.stratum ?? "";
      (by.get(h) ?? by.set(h, []).get(h)!).push(i);
    });
    strata = [...by.keys()].sort().map((h) => by.get(h)!);
  }
  const bootstrap = bootstrapReplicates((rng) => {
    let y = 0;
    for (const i of resampleIndices(rng, N)) y += verdicts[i]!;
    const rates = tprTnr(labelled, resampleLabelled(rng, strata, labelled.length));
    return rates.tpr === null || rates.tnr === null ? null : roganGladen(y / N, rates.tpr, rates.tnr).estimate;
  }, options);
  return { ...point, apparent, tpr, tnr, bootstrap };
}
