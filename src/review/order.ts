import type { Judgment, QueueEntry } from "../golden/schema/items.js";

/**
 * The order a review serves its queue in. `queue`: as drawn. `uncertain`:
 * within each draw (entries of one `draw`, or of one non-drawn frame), the
 * items whose judge was least sure first: |P(yes) - 0.5| ascending, P(yes)
 * the mean over the item's verdicts that carry one; items without a P(yes)
 * after them, each part in queue order. Only the order changes: the same
 * items are served, the queue file and the draw manifests are not touched,
 * and every label keeps its draw and inclusion probability, so the gate's
 * estimates stay those of the draw. Draws keep their order of first
 * appearance, so a draw is finished before the next begins, as before.
 */
export type ReviewOrder = "queue" | "uncertain";

/** The review orders, for the CLI's choices. */
export const REVIEW_ORDERS: readonly ReviewOrder[] = ["queue", "uncertain"];

/** An item's P(yes): the mean over its yes/no verdicts that carry one; undefined when none does. */
export function meanPYes(judgments: readonly Judgment[] | undefined): number | undefined {
  const ps = (judgments ?? []).flatMap((j) => (j.pYes === undefined || j.verdict === "error" ? [] : [j.pYes]));
  return ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : undefined;
}

/**
 * The queue indices in the order `uncertain` serves them (see {@link ReviewOrder}).
 *
 * @example
 * uncertainOrder(entries, (i) => [0.9, 0.55, undefined][i]) // [1, 0, 2]
 */
export function uncertainOrder(entries: readonly QueueEntry[], pYes: (index: number) => number | undefined): number[] {
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const k = e.draw !== undefined ? `draw ${e.draw}` : `frame ${e.frame}`;
    (groups.get(k) ?? groups.set(k, []).get(k)!).push(i);
  });
  const out: number[] = [];
  for (const members of groups.values()) {
    const withP = members.map((i) => ({ i, p: pYes(i) }));
    const known = withP.filter((x) => x.p !== undefined).sort((a, b) => Math.abs(a.p! - 0.5) - Math.abs(b.p! - 0.5) || a.i - b.i);
    out.push(...known.map((x) => x.i), ...withP.filter((x) => x.p === undefined).map((x) => x.i));
  }
  return out;
}
