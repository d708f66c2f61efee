import { hasUnlabelled } from "../calibration/gate.js";
import { evidenceKey } from "../calibration/keys.js";
import { labelledForDraw, type DrawStatus } from "../calibration/draw-status.js";
import type { LabelBook } from "../calibration/labels.js";
import type { GroupPlan } from "../calibration/plan/plan.js";
import { readSkips } from "./store.js";

/** A draw with drawn held-out items still unlabelled, and the judge's plan it belongs to. */
export interface OpenDraw {
  p: GroupPlan;
  d: DrawStatus;
}

/**
 * The draws of the plans' judges that must be labelled before `plan
 * --budget` draws more: those with drawn held-out items still unlabelled,
 * except a draw that counts and whose every unlabelled item its annotator
 * skipped in review (`settled`). Skipping is a choice the gate already
 * prices: those items count as disagreements with the judge until labelled,
 * so another draw cannot flatter it, and refusing to draw more would leave a
 * labeller who cannot decide an item with no way forward. A draw below
 * `minCoverage`, or with an item nobody has looked at, stays open.
 *
 * @example
 * const { open } = openDraws(plans, "labels", loadLabels("labels"));
 * if (open.length) console.log(`label draw ${open[0].d.id} first`);
 */
export function openDraws(plans: readonly GroupPlan[], labelsDir: string, book: LabelBook): { open: OpenDraw[]; settled: OpenDraw[] } {
  const open: OpenDraw[] = [];
  const settled: OpenDraw[] = [];
  const skipsOf = new Map<string, ReadonlySet<string>>();
  for (const p of plans) {
    for (const d of p.pairing.draws) {
      if (!hasUnlabelled(d)) continue;
      const skips = skipsOf.get(d.annotator) ?? skipsOf.set(d.annotator, readSkips(labelsDir, d.annotator)).get(d.annotator)!;
      // The draw's items nobody has labelled (as draw-status.ts counts the draw's coverage).
      const rest = p.pairing.skipped.filter((s) => s.draws.includes(d.id)).map((s) => evidenceKey(s.judged.key, s.judged.inputHash)).filter((k) => !labelledForDraw(book.items.get(k)));
      const allSkipped = d.counts && rest.length === d.drawn - d.labelled && rest.every((k) => skips.has(k));
      (allSkipped ? settled : open).push({ p, d });
    }
  }
  return { open, settled };
}
