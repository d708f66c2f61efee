/**
 * The tuning / evaluation split of attribution-dev. Thresholds of the
 * baseline judge are chosen on the tuning half only; the evaluation half is
 * the honest figure. Seeded and stratified by label, so both halves keep the
 * data's balance and every run draws the same halves.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";

/** The seed of the published split. Changing it changes which claims tuned the thresholds. */
export const SPLIT_SEED = 20261130;

/**
 * The two halves, named as they are written into the labels' and golden
 * questions' `split`: `heldout` is the split name `ragjudge calibrate` gates
 * on when labels carry splits, so its trust gate sees the evaluation half only.
 */
export type Half = "tune" | "heldout";

/**
 * Assigns each item to `tune` or `heldout` (evaluation): within each label, a seeded
 * Fisher-Yates shuffle of the items in input order, the first half (rounded
 * down) tuning, the rest evaluation.
 *
 * @example
 * splitHalves([{id:"a",label:"yes"},{id:"b",label:"yes"}], 1) // Map { "a" => "heldout", "b" => "tune" } (for some seed)
 */
export function splitHalves<T extends { id: string; label: string }>(items: readonly T[], seed = SPLIT_SEED): Map<string, Half> {
  const rng = xoroshiro128plus(seed);
  const out = new Map<string, Half>();
  const labels = [...new Set(items.map((i) => i.label))].sort();
  for (const label of labels) {
    const ids = items.filter((i) => i.label === label).map((i) => i.id);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = unsafeUniformIntDistribution(0, i, rng);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const cut = Math.floor(ids.length / 2);
    ids.forEach((id, k) => out.set(id, k < cut ? "tune" : "heldout"));
  }
  return out;
}
