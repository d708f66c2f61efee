import { unsafeUniformIntDistribution, type RandomGenerator } from "pure-rand";
import { mean, quantileSorted } from "simple-statistics";
import { BOUNDS, requireWithin, type NumberBounds } from "../../golden/bounds.js";
import type { Interval } from "./types.js";
import { Xoroshiro128Plus, xoroshiro128plus } from "./xoroshiro.js";

/** Default number of bootstrap replicates. */
export const DEFAULT_REPS = 2000;
/** Default seed, so a run without `--seed` is still reproducible. */
export const DEFAULT_SEED = 20_261_130;

/** Options shared by the bootstrap intervals. */
export interface BootstrapOptions {
  /** Seed of the xoroshiro128+ generator (pure-rand); the same seed gives the same interval. */
  seed?: number;
  /** Number of replicates (default 2000). */
  reps?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

/** A percentile bootstrap interval, or null with a reason. */
export interface BootstrapInterval {
  ci: Interval | null;
  reason?: string;
  level: number;
  reps: number;
  seed: number;
  /** Replicates whose statistic was undefined (dropped before taking percentiles). */
  undefinedReps: number;
}

/** A seeded generator: every bootstrap and sample in ragjudge draws from one of these. */
export function seededRng(seed: number): RandomGenerator {
  return xoroshiro128plus(seed | 0);
}

/** Draws n indices in [0, size) with replacement. */
export function resampleIndices(rng: RandomGenerator, size: number, n = size): Uint32Array {
  const idx = new Uint32Array(n);
  fillIndices(rng, size, idx);
  return idx;
}

/**
 * Percentile interval of replicate values (Efron & Tibshirani 1993, §13.3):
 * the (1 - level)/2 and (1 + level)/2 quantiles (type 7, linear
 * interpolation, simple-statistics `quantileSorted`) of the defined
 * replicates. Null when fewer than half the replicates are defined: an
 * interval over a minority of resamples would describe a different question.
 */
export function percentileInterval(values: number[], reps: number, seed: number, level: number): BootstrapInterval {
  const undefinedReps = reps - values.length;
  const base = { level, reps, seed, undefinedReps };
  if (values.length < reps / 2 || values.length === 0) {
    return { ...base, ci: null, reason: `the statistic is undefined in ${undefinedReps} of ${reps} resamples` };
  }
  values.sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return { ...base, ci: { lo: quantileSorted(values, alpha), hi: quantileSorted(values, 1 - alpha) } };
}

/**
 * What the statistics themselves take from a caller's code. Wider than the
 * flags' bounds (`--reps` starts at 100; a test or a quick look may draw 10
 * resamples), but a count of resamples that would run out of memory or for
 * ever, a fractional count or seed, or a level outside 0 to 1, is a
 * RangeError before any draw, as at the library's entry points.
 */
const STATS_BOUNDS = {
  reps: { min: 1, max: BOUNDS.bootstrapReps.max, integer: true, flags: [], why: BOUNDS.bootstrapReps.why },
  seed: { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: true, flags: [], why: "a whole number, taken to 32 bits" },
  level: { min: 0, max: 1, integer: false, flags: [], why: "a confidence level is a share" },
} as const satisfies Record<string, NumberBounds>;

/** The options with their defaults filled in, held to {@link STATS_BOUNDS}. */
function settingsOf(options: BootstrapOptions): { reps: number; seed: number; level: number } {
  return {
    reps: requireWithin("reps", options.reps ?? DEFAULT_REPS, STATS_BOUNDS.reps),
    seed: requireWithin("seed", options.seed ?? DEFAULT_SEED, STATS_BOUNDS.seed),
    level: requireWithin("level", options.level ?? 0.95, STATS_BOUNDS.level),
  };
}

/**
 * The result of a bootstrap that could not run (no items, a figure unknown
 * on the data itself), with why: every replicate counts as undefined.
 *
 * @example
 * noBootstrap("no judged items", { seed: 1 }).ci // null
 */
export function noBootstrap(reason: string, options: BootstrapOptions = {}): BootstrapInterval {
  const { reps, seed, level } = settingsOf(options);
  return { ci: null, reason, level, reps, seed, undefinedReps: reps };
}

/**
 * The seeded percentile bootstrap loop every interval here shares: runs
 * `reps` replicates, each drawing its own resample from the one generator
 * of the run (so the same seed gives the same interval) and returning the
 * statistic on it, or null when it is undefined there (counted, then
 * dropped). For resampling designs beyond one set of n items, such as two
 * samples or strata, which {@link bootstrapInterval} does not cover.
 *
 * @example
 * bootstrapReplicates((rng) => meanOf(resampleIndices(rng, n)), { seed: 7 })
 */
export function bootstrapReplicates(replicate: (rng: RandomGenerator) => number | null, options: BootstrapOptions = {}): BootstrapInterval {
  const { reps, seed, level } = settingsOf(options);
  const rng = seededRng(seed);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    const v = replicate(rng);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  return percentileInterval(values, reps, seed, level);
}

/**
 * Seeded nonparametric bootstrap of any statistic of n items: each replicate
 * draws n item indices with replacement and calls `stat`, which returns null
 * when the statistic is undefined on that resample (counted, then dropped).
 *
 * @example
 * bootstrapInterval(pairs.length, (idx) => kappaOf([...idx].map((i) => pairs[i])), { seed: 7 })
 */
export function bootstrapInterval(
  n: number,
  stat: (indices: Uint32Array) => number | null,
  options: BootstrapOptions = {},
): BootstrapInterval {
  if (n === 0) return noBootstrap("no items", options);
  return bootstrapReplicates((rng) => stat(resampleIndices(rng, n)), options);
}

/** A mean paired difference with its bootstrap interval. */
export interface PairedDifference {
  n: number;
  /** mean(x_i - y_i); null when there are no pairs. */
  meanDifference: number | null;
  bootstrap: BootstrapInterval;
}

/** Indices a {@link ResampleCache} holds at most, all sets together: 64M (128 MB as 16-bit indices). */
const CACHED_INDICES_MAX = 64 << 20;

/**
 * The resamples of seeded bootstraps, kept for the next bootstrap of the
 * same seed, replicates and size. Those draw the very same indices (each
 * starts its own generator from the seed), so a caller that bootstraps many
 * figures over the same questions draws them once: `ragjudge compare`
 * bootstraps a dozen measures over all questions and again within each
 * kind and tag, and at 10,000 questions spent 15.7 s of its 20.8 s drawing
 * the same indices again (about 500 million draws). Holds the most
 * recently used sets up to `budget` indices in all; a set larger than that
 * is drawn as it is used and never kept.
 *
 * @example
 * const resamples = new ResampleCache();
 * pairedBootstrapMeanDifference(b1, a1, { seed: 7, resamples });
 * pairedBootstrapMeanDifference(b2, a2, { seed: 7, resamples }); // the same 2,000 resamples, not drawn again
 */
export class ResampleCache {
  private readonly sets = new Map<string, Uint16Array | Uint32Array>();
  private held = 0;

  constructor(private readonly budget = CACHED_INDICES_MAX) {}

  /** All `reps` resamples of `n` indices drawn from `seed`, one after the other; undefined when too many to keep. */
  indices(seed: number, reps: number, n: number): Uint16Array | Uint32Array | undefined {
    const size = reps * n;
    if (size > this.budget) return undefined;
    const key = `${seed}:${reps}:${n}`;
    let flat = this.sets.get(key);
    if (flat) this.sets.delete(key); // most recently used goes last
    else {
      flat = n <= 0x10000 ? new Uint16Array(size) : new Uint32Array(size);
      fillIndices(seededRng(seed), n, flat);
      for (const [oldest, set] of this.sets) {
        if (this.held + size <= this.budget) break;
        this.sets.delete(oldest);
        this.held -= set.length;
      }
      this.held += size;
    }
    this.sets.set(key, flat);
    return flat;
  }
}

/** Fills `out` with indices in [0, size) drawn from `rng` in order: {@link resampleIndices} and {@link ResampleCache} both draw through it. */
function fillIndices(rng: RandomGenerator, size: number, out: Uint16Array | Uint32Array): void {
  if (rng instanceof Xoroshiro128Plus) rng.fillUniform(size, out);
  else for (let i = 0; i < out.length; i++) out[i] = unsafeUniformIntDistribution(0, size - 1, rng);
}

/**
 * Mean of the paired differences x_i - y_i (for example a per-question metric
 * of variant B minus variant A, in that order) with a seeded paired
 * bootstrap interval: each replicate resamples whole pairs, so the
 * correlation between the two measurements of one question is kept
 * (Efron & Tibshirani 1993, §9). With `resamples`, the resamples are those
 * of an earlier call of the same seed, replicates and size: the same
 * interval, bit for bit, without drawing them again.
 *
 * @example
 * pairedBootstrapMeanDifference([0.9, 0.7, 1], [0.8, 0.7, 0.5], { seed: 1 }).meanDifference // 0.2
 */
export function pairedBootstrapMeanDifference(
  x: readonly number[],
  y: readonly number[],
  options: BootstrapOptions & { resamples?: ResampleCache } = {},
): PairedDifference {
  if (x.length !== y.length) throw new RangeError(`paired samples need equal lengths: ${x.length} vs ${y.length}`);
  const d = x.map((v, i) => v - y[i]!);
  for (const v of d) if (!Number.isFinite(v)) throw new RangeError("paired values must be finite numbers");
  const n = d.length;
  if (n === 0) return { n, meanDifference: null, bootstrap: noBootstrap("no items", options) };
  const { reps, seed, level } = settingsOf(options);
  // every replicate's indices: from the cache, or drawn into one buffer as they are needed
  const cached = options.resamples?.indices(seed, reps, n);
  const rng = cached ? undefined : seededRng(seed);
  const drawn = cached ? undefined : new Uint32Array(n);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    const idx = cached ?? drawn!;
    if (!cached) fillIndices(rng!, n, drawn!);
    let s = 0;
    for (let j = cached ? r * n : 0, end = j + n; j < end; j++) s += d[idx[j]!]!;
    const v = s / n;
    if (Number.isFinite(v)) values.push(v);
  }
  return { n, meanDifference: mean(d), bootstrap: percentileInterval(values, reps, seed, level) };
}
