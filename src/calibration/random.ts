import { uniformIntDistribution, type RandomGenerator } from "pure-rand";
import { seededRng } from "./stats/bootstrap.js";
import { sha256 } from "../golden/hash.js";

/**
 * A generator for one named purpose under a seed (`"faithfulness/random"`).
 * Each rubric and frame draws from its own stream, so adding a rubric or a
 * frame never changes another one's sample for the same seed.
 */
export function streamFor(seed: number, purpose: string): RandomGenerator {
  const h = sha256(`${seed}\u0000${purpose}`);
  return seededRng(Number.parseInt(h.slice(0, 8), 16));
}

/**
 * A uniform random sample of `n` elements without replacement (a partial
 * Fisher-Yates shuffle), in draw order. Deterministic for a given generator
 * state and input order, so callers pass inputs in a canonical order.
 *
 * @example
 * sampleWithoutReplacement(["a", "b", "c", "d"], 2, streamFor(1, "x")) // two of them
 */
export function sampleWithoutReplacement<T>(items: readonly T[], n: number, rng: RandomGenerator): T[] {
  const a = items.slice();
  const k = Math.min(Math.max(0, n), a.length);
  let g = rng;
  for (let i = 0; i < k; i++) {
    const [j, next] = uniformIntDistribution(i, a.length - 1, g);
    g = next;
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, k);
}

/** A seeded uniform permutation. */
export function shuffle<T>(items: readonly T[], rng: RandomGenerator): T[] {
  return sampleWithoutReplacement(items, items.length, rng);
}
