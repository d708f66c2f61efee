import { unsafeUniformIntDistribution } from "pure-rand";
import { drawItemKey, type LoadedDraw } from "./draws.js";
import { streamFor } from "./random.js";

/**
 * Each item's inclusion probability over the draws that count together:
 * the chance that at least one of them draws it, which the gate weights its
 * label by (1/p).
 *
 * - Draws of one family (the same design, population and strata) hold one
 *   another: a larger one's first picks are a smaller one's, so their union
 *   is the largest and an item's probability is the largest p.
 * - Draws of one population but of other families (a uniform draw and a
 *   `plan --budget` one, or uniform draws over other scopes) take their
 *   items in the same order (plan/stratified-draw.ts, drawOrder), so they
 *   are far from independent: 1 - Π(1 - p) would overstate the union. The
 *   union's probability is computed by replaying every draw's rule (the
 *   first n of its frame, the first n_h of each stratum) over many random
 *   orders, averaged over the items every draw treats alike (the same frame
 *   or stratum in each): within such a cell the order of its items is
 *   independent of how they interleave with the rest, so each has the same
 *   chance. Seeded, so the same draws give the same probabilities.
 * - Draws of different populations (made before the data changed, with
 *   their own seeds) are independent: 1 - Π(1 - p) over families.
 *
 * @example
 * const p = inclusionOver(countingDraws);
 * p(drawItemKey("faithfulness", item)) // 0.25
 */
export function inclusionOver(draws: readonly LoadedDraw[]): (key: string) => number {
  // A draw's id is its content's hash, so the same ids are the same draws: calibrate and the report pair each group
  // once each, and a replay of mixed draws costs some 0.1-0.2 s.
  const id = draws.map((d) => d.draw.id).sort().join(",");
  const known = CACHE.get(id);
  if (known) return known;
  const f = unionOf(draws);
  if (CACHE.size >= 16) CACHE.delete(CACHE.keys().next().value!);
  CACHE.set(id, f);
  return f;
}

const CACHE = new Map<string, (key: string) => number>();

function unionOf(draws: readonly LoadedDraw[]): (key: string) => number {
  const byPopulation = new Map<number, LoadedDraw[]>();
  for (const d of draws) (byPopulation.get(d.draw.seed) ?? byPopulation.set(d.draw.seed, []).get(d.draw.seed)!).push(d);
  const parts = [...byPopulation.values()].map(unionOfOnePopulation);
  return (key) => {
    const ps = parts.map((f) => f(key)).filter((p) => p > 0);
    return ps.length === 1 ? ps[0]! : 1 - ps.reduce((acc, p) => acc * (1 - p), 1);
  };
}

/** The draws of one family hold one another (see {@link inclusionOver}). */
function family(d: LoadedDraw): string {
  return JSON.stringify([d.draw.design, d.draw.seed, d.draw.design === "stratified" ? (d.draw.strata ?? []).map((s) => [s.name, s.size]) : null]);
}

/** Replays of the union per item in the population: about this many item visits (at most 2,000 orders). */
const VISITS = 4_000_000;

/** The union's inclusion probability per item key, for draws of one population (one seed, one order). */
function unionOfOnePopulation(draws: readonly LoadedDraw[]): (key: string) => number {
  const rubric = draws[0]!.draw.rubric;
  if (new Set(draws.map(family)).size === 1) {
    const best = new Map<string, number>();
    for (const d of draws) for (const it of d.draw.population.items) if (it.p > 0) best.set(drawItemKey(rubric, it), Math.max(it.p, best.get(drawItemKey(rubric, it)) ?? 0));
    return (key) => best.get(key) ?? 0;
  }
  // Every draw's group of each item (its frame for a uniform draw, its stratum for a stratified one; -1 outside) and quota.
  const keys = draws[0]!.draw.population.items.map((it) => drawItemKey(rubric, it));
  const indexOf = new Map(keys.map((k, i) => [k, i]));
  const groups: Int32Array[] = [];
  const quotas: number[][] = [];
  for (const d of draws) {
    const names = new Map<string, number>();
    const at = new Map(d.draw.population.items.map((it) => [drawItemKey(rubric, it), it]));
    const g = new Int32Array(keys.length).fill(-1);
    keys.forEach((k, i) => {
      const it = at.get(k);
      if (!it || !(it.p > 0)) return;
      const name = d.draw.design === "stratified" ? it.stratum ?? "" : "frame";
      g[i] = names.get(name) ?? names.set(name, names.size).get(name)!;
    });
    const quota = new Array<number>(names.size).fill(0);
    for (const i of d.draw.drawn) {
      const j = indexOf.get(drawItemKey(rubric, d.draw.population.items[i]!));
      if (j !== undefined && g[j]! >= 0) quota[g[j]!]!++;
    }
    groups.push(g);
    quotas.push(quota);
  }
  const cellOf = keys.map((_, i) => groups.map((g) => g[i]).join(","));
  const cells = new Map<string, { size: number; hits: number }>();
  for (const c of cellOf) (cells.get(c) ?? cells.set(c, { size: 0, hits: 0 }).get(c)!).size++;
  const reps = Math.max(200, Math.min(2000, Math.floor(VISITS / Math.max(1, keys.length))));
  const taken = quotas.map((q) => new Array<number>(q.length).fill(0));
  const order = Int32Array.from(keys, (_, i) => i);
  // A stream of its own under the population's seed (an estimate, not a draw: the draws' stream is never touched).
  const rng = streamFor(draws[0]!.draw.seed, `${rubric}/inclusion`);
  for (let r = 0; r < reps; r++) {
    for (const t of taken) t.fill(0);
    for (let k = order.length - 1; k > 0; k--) {
      const j = unsafeUniformIntDistribution(0, k, rng);
      const x = order[k]!;
      order[k] = order[j]!;
      order[j] = x;
    }
    for (const i of order) {
      let hit = false;
      for (let j = 0; j < groups.length; j++) {
        const g = groups[j]![i]!;
        if (g >= 0 && taken[j]![g]! < quotas[j]![g]!) {
          taken[j]![g]!++;
          hit = true;
        }
      }
      if (hit) cells.get(cellOf[i]!)!.hits++;
    }
  }
  const p = new Map(keys.map((k, i) => {
    const c = cells.get(cellOf[i]!)!;
    return [k, groups.some((g) => g[i]! >= 0) ? c.hits / (reps * c.size) : 0];
  }));
  return (key) => p.get(key) ?? 0;
}
