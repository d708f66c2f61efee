import { kappaInfluence } from "./kappa-linear.js";

/**
 * The strata a stratified draw uses, defined by the judge alone (never by a
 * label, which is unknown before the draw): its verdict, its confidence band
 * when it gives P(yes), and the variant. Then Neyman's allocation (Neyman
 * 1934; Cochran 1977, §5.5): n_h ∝ N_h·S_h, more labels where a stratum is
 * large or its linearised values vary most (where the judge is least
 * certain), with at least two per stratum so every item has a positive
 * inclusion probability and every stratum a variance of its own.
 */

/** A judged item as stratification reads it. */
export interface StratifiableItem {
  variant: string;
  verdict: "yes" | "no" | "error" | "tie";
  /** The judge's P(yes), when it gives one. */
  pYes?: number;
}

/** Confidence bands of P(yes): the judge is sure (below 0.2 or above 0.8) or not. */
export function confidenceBand(pYes: number | undefined): string | undefined {
  if (pYes === undefined) return undefined;
  return pYes < 0.2 || pYes > 0.8 ? "sure" : "unsure";
}

/** What the strata are made of, coarsest last. */
export interface StrataLevel {
  variant: boolean;
  band: boolean;
  /** One stratum for every item (a draw too small for one per verdict). */
  single?: boolean;
}

/** The stratum of one item: "verdict no", "verdict yes · unsure · bm25", … */
export function stratumOf(item: StratifiableItem, level: StrataLevel): string {
  if (level.single) return "all";
  const parts = [`verdict ${item.verdict}`];
  const band = level.band ? confidenceBand(item.pYes) : undefined;
  if (band) parts.push(band);
  if (level.variant) parts.push(item.variant);
  return parts.join(" · ");
}

/** The levels of detail a frame is cut at, finest first; `plan --budget` falls back to one stratum (`single`) below them all. */
export const STRATA_LEVELS: readonly StrataLevel[] = [{ variant: true, band: true }, { variant: false, band: true }, { variant: true, band: false }, { variant: false, band: false }];

/** One stratum for every item: the level plan --budget takes when its budget is too small for more strata. */
export const SINGLE_STRATUM: StrataLevel = { variant: false, band: false, single: true };

/** The finest stratification with at most `maxStrata` strata: variant and band, then band only, then verdict only. */
export function chooseStrata(items: readonly StratifiableItem[], maxStrata: number): { level: StrataLevel; names: string[] } {
  let last: { level: StrataLevel; names: string[] } | undefined;
  for (const level of STRATA_LEVELS) {
    const names = [...new Set(items.map((i) => stratumOf(i, level)))].sort();
    last = { level, names };
    if (names.length <= maxStrata) return last;
  }
  return last!;
}

/** One stratum for allocation: its size and the standard deviation of the estimator's linearised values in it. */
export interface StratumSpec {
  name: string;
  size: number;
  sd: number;
}

/**
 * Neyman's allocation of `n` draws over strata: at least `floor` (2) in each
 * stratum (all of it when smaller), at most its size, the rest in proportion
 * to size·sd, rounded by largest remainder so the counts sum to
 * min(n, Σ size). Strata with sd 0 get their floor only.
 *
 * @example
 * neymanAllocation([{ name: "a", size: 900, sd: 0.2 }, { name: "b", size: 100, sd: 0.5 }], 100) // a 78, b 22
 */
export function neymanAllocation(strata: readonly StratumSpec[], n: number, floor = 2): Map<string, number> {
  const total = Math.min(n, strata.reduce((s, h) => s + h.size, 0));
  const alloc = new Map<string, number>(strata.map((h) => [h.name, Math.min(h.size, floor)]));
  let used = [...alloc.values()].reduce((a, b) => a + b, 0);
  if (used > total) {
    // Fewer draws than floors: one per stratum, largest first, so none is left at zero while draws remain.
    for (const h of strata) alloc.set(h.name, 0);
    const order = [...strata].sort((a, b) => b.size - a.size || (a.name < b.name ? -1 : 1));
    for (let i = 0; i < total; i++) {
      const h = order[i % order.length]!;
      alloc.set(h.name, Math.min(h.size, alloc.get(h.name)! + 1));
    }
    return alloc;
  }
  // Bounded Neyman: n_h = clamp(λ·N_h·S_h, floor_h, N_h) with Σ n_h = total, λ by bisection
  // (a tiny share by size keeps strata with S_h = 0 in the order).
  const lo = new Map(strata.map((h) => [h.name, alloc.get(h.name)!]));
  const weight = (h: StratumSpec) => h.size * h.sd + 1e-9 * h.size;
  const at = (lambda: number) => new Map(strata.map((h) => [h.name, Math.min(h.size, Math.max(lo.get(h.name)!, lambda * weight(h)))]));
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  let a = 0, b = 1;
  while (sum(at(b)) < total && b < 1e300) b *= 2;
  for (let i = 0; i < 200; i++) {
    const mid = (a + b) / 2;
    if (sum(at(mid)) < total) a = mid;
    else b = mid;
  }
  const real = at(b);
  // Largest remainder rounding to exactly `total`.
  const base = strata.map((h) => ({ h, k: Math.floor(real.get(h.name)! + 1e-9), frac: real.get(h.name)! - Math.floor(real.get(h.name)! + 1e-9) }));
  used = base.reduce((s, b) => s + b.k, 0);
  base.sort((a, b) => b.frac - a.frac || (a.h.name < b.h.name ? -1 : 1));
  for (const b of base) {
    if (used >= total) break;
    if (b.k < b.h.size) {
      b.k++;
      used++;
    }
  }
  for (const b of base) alloc.set(b.h.name, b.k);
  return alloc;
}

/**
 * The standard deviation of kappa's linearised value within a stratum of one
 * verdict: the value takes two levels (label agrees with the verdict or not),
 * so sd = |u_agree - u_disagree|·sqrt(q(1 - q)) with q the stratum's share of
 * agreement, estimated from its labels shrunk toward the overall agreement
 * (two pseudo-labels), so a stratum with no labels yet gets the overall share.
 * An error verdict always counts as a disagreement: sd 0.
 */
export function kappaStratumSd(
  verdict: StratifiableItem["verdict"],
  labels: { agree: number; n: number },
  at: { po: number; r: number; c: number; pe: number },
): number {
  if (verdict !== "yes" && verdict !== "no") return 0;
  const j = verdict === "yes" ? 1 : 0;
  const q = (labels.agree + 2 * at.po) / (labels.n + 2);
  const spread = Math.abs(kappaInfluence(j, j, at) - kappaInfluence(j, j === 1 ? 0 : 1, at));
  return spread * Math.sqrt(Math.max(0, q * (1 - q)));
}
