/**
 * When kappa's interval says nothing. If the people's labels, or the judge's
 * verdicts, are all one answer, kappa is 0 by convention and its asymptotic
 * variance is 0 by formula, so the interval is [0, 0]: zero width, which
 * reads as certainty but only means the statistic cannot see anything. The
 * bootstrap is no help (every resample keeps the single answer). Every
 * output flags such an interval with this, and the gate never trusts on it.
 */

/** Why kappa's interval is not informative: which side gave a single answer. */
export interface UninformativeInterval {
  cause: "labels-constant" | "judge-constant" | "both-constant";
  /** The one label the labellers gave, when they gave only one. */
  label?: "yes" | "no";
  /** The one verdict the judge gave (judge errors count as the opposite of the label), when it gave only one. */
  judge?: "yes" | "no";
  /** For people: "labellers gave only 'yes'", "the judge gave only 'no'". */
  reason: string;
}

/** The confusion cells the check needs (rows judge, columns labels; weights allowed). */
export interface ConfusionCells {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

/**
 * Whether kappa's interval is not informative on a confusion matrix, and
 * why: the labels or the judge's verdicts are all one answer while kappa is
 * defined (when both are the same single answer kappa is undefined instead,
 * which is reported as such). Null when both sides used both answers, or
 * when there are no items.
 *
 * @example
 * uninformativeInterval({ tp: 6, fn: 3, fp: 0, tn: 0 })
 * // { cause: "labels-constant", label: "yes", reason: "labellers gave only 'yes'" }
 */
export function uninformativeInterval(c: ConfusionCells): UninformativeInterval | null {
  const labelYes = c.tp + c.fn;
  const labelNo = c.fp + c.tn;
  const judgeYes = c.tp + c.fp;
  const judgeNo = c.fn + c.tn;
  if (labelYes + labelNo <= 0) return null;
  const label = labelNo <= 0 ? "yes" : labelYes <= 0 ? "no" : undefined;
  const judge = judgeNo <= 0 ? "yes" : judgeYes <= 0 ? "no" : undefined;
  if (label && judge) {
    if (label === judge) return null; // kappa undefined (0/0), reported as undefined
    return { cause: "both-constant", label, judge, reason: `labellers gave only '${label}' and the judge only '${judge}'` };
  }
  if (label) return { cause: "labels-constant", label, reason: `labellers gave only '${label}'` };
  if (judge) return { cause: "judge-constant", judge, reason: `the judge gave only '${judge}'` };
  return null;
}

/**
 * The one-line explanation for reports: why the interval is not informative
 * and what kappa = 0 means there.
 *
 * @example
 * explainUninformative(u) // "labellers gave only 'yes', so kappa is 0 by convention and its interval has zero width by formula (not certainty)"
 */
export function explainUninformative(u: UninformativeInterval): string {
  return `${u.reason}, so kappa is 0 by convention and its interval has zero width by formula (not certainty)`;
}

/**
 * The cause in a few words, for a table cell.
 *
 * @example
 * shortUninformative(u) // "labels all 'yes', judge all 'no'"
 */
export function shortUninformative(u: UninformativeInterval): string {
  const parts: string[] = [];
  if (u.label) parts.push(`labels all '${u.label}'`);
  if (u.judge) parts.push(`judge all '${u.judge}'`);
  return parts.join(", ");
}
