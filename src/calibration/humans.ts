import type { LabelledItem } from "./labels.js";
import { cohenKappaOfRatings, countsFromRatings, fleissKappa, krippendorffAlphaNominal, type CohenKappa, type FleissKappa, type KrippendorffAlpha } from "./stats/index.js";

/** Agreement among people: the ceiling a judge can be expected to reach. */
export interface HumanAgreement {
  annotators: string[];
  /** Items labelled by at least two annotators. */
  overlap: number;
  /** Two annotators: Cohen's kappa on the items both labelled. */
  cohen?: CohenKappa;
  /** Three or more: Fleiss' kappa over items with two or more labels. */
  fleiss?: FleissKappa;
  /** Krippendorff's alpha (nominal), missing labels allowed. */
  krippendorff: KrippendorffAlpha;
  /** Raw agreement: share of annotator pairs on an item that agree, averaged over items. */
  agreement: number | null;
}

/**
 * Human-human agreement on a set of labelled items (each annotator's
 * effective label; adjudication labels are not votes): Cohen's kappa when
 * exactly two annotators overlap, Fleiss' kappa when more do, and
 * Krippendorff's alpha with missing labels either way. Null when fewer than
 * two annotators labelled any common item.
 *
 * @example
 * humanAgreement(pairing.gate.map((p) => p.people ?? p.labelled))?.krippendorff.alpha
 */
export function humanAgreement(items: readonly LabelledItem[]): HumanAgreement | null {
  const multi = items.filter((i) => i.byAnnotator.length >= 2);
  if (multi.length === 0) return null;
  const annotators = [...new Set(multi.flatMap((i) => i.byAnnotator.map((l) => l.value.annotator)))].sort();
  const matrix = annotators.map((a) => multi.map((i) => i.byAnnotator.find((l) => l.value.annotator === a)?.value.label ?? null));
  const out: HumanAgreement = {
    annotators,
    overlap: multi.length,
    krippendorff: krippendorffAlphaNominal(matrix),
    agreement: null,
  };
  let sum = 0;
  for (const i of multi) {
    const ls = i.byAnnotator.map((l) => l.value.label);
    let agree = 0;
    let total = 0;
    for (let x = 0; x < ls.length; x++) for (let y = x + 1; y < ls.length; y++) {
      total++;
      if (ls[x] === ls[y]) agree++;
    }
    sum += agree / total;
  }
  out.agreement = sum / multi.length;
  if (annotators.length === 2) {
    const [a, b] = matrix as [("yes" | "no" | null)[], ("yes" | "no" | null)[]];
    const both = a.map((v, k) => [v, b[k]] as const).filter(([x, y]) => x !== null && y !== null) as ["yes" | "no", "yes" | "no"][];
    out.cohen = cohenKappaOfRatings(both.map(([x]) => x), both.map(([, y]) => y), ["yes", "no"]);
  } else {
    out.fleiss = fleissKappa(countsFromRatings(matrix, ["yes", "no"]));
  }
  return out;
}
