import type { Judgment } from "../../golden/schema/items.js";

/**
 * The served model is part of what a judge's verdicts measured: an alias
 * (`gpt-4o-mini`) can move to a new snapshot under the same fingerprint, and
 * verdicts of two snapshots must never be pooled into one pass rate or one
 * kappa. Every figure is therefore kept per (rubric, fingerprint, served
 * model). A verdict whose reply named no model (an HTTP error, a server that
 * reports none) joins the most frequent served model of its rubric and
 * fingerprint, so errors stay beside the verdicts they failed among.
 */

/** The served-model part of a figure's key: the model the server reported, or "" when none did. */
export type ServedKey = string;

/**
 * A function giving each judgment's served-model key (see the module
 * comment): its own `servedModel`, else the most frequent one of its rubric
 * and fingerprint (ties by name), else "".
 *
 * @example
 * const served = servedKeys(judgments);
 * served(judgments[0]) // "gpt-4o-mini-2024-07-18"
 */
export function servedKeys(judgments: readonly Pick<Judgment, "rubric" | "fingerprint" | "servedModel">[]): (j: Pick<Judgment, "rubric" | "fingerprint" | "servedModel">) => ServedKey {
  // Nested by rubric, then fingerprint: no key string built per judgment (80,000 concatenated
  // fingerprints cost more than the counting); the last group is remembered, as runs come grouped.
  const counts = new Map<string, Map<string, Map<string, number>>>();
  let lastRubric: string | undefined;
  let lastFp: string | undefined;
  let last: Map<string, number> | undefined;
  for (const j of judgments) {
    if (!j.servedModel) continue;
    if (j.rubric !== lastRubric || j.fingerprint !== lastFp) {
      const byFp = counts.get(j.rubric) ?? counts.set(j.rubric, new Map()).get(j.rubric)!;
      last = byFp.get(j.fingerprint) ?? byFp.set(j.fingerprint, new Map()).get(j.fingerprint)!;
      lastRubric = j.rubric;
      lastFp = j.fingerprint;
    }
    last!.set(j.servedModel, (last!.get(j.servedModel) ?? 0) + 1);
  }
  const dominant = new Map<string, Map<string, string>>();
  for (const [rubric, byFp] of counts) {
    const d = new Map<string, string>();
    for (const [fp, m] of byFp) d.set(fp, [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0]);
    dominant.set(rubric, d);
  }
  return (j) => j.servedModel || dominant.get(j.rubric)?.get(j.fingerprint) || "";
}
