import { unsafeUniformIntDistribution, uniformIntDistribution, xoroshiro128plus as pureRand } from "pure-rand";
import { describe, expect, it } from "vitest";
import { bootstrapInterval, pairedBootstrapMeanDifference, percentileInterval, resampleIndices, ResampleCache, seededRng } from "../../../src/calibration/stats/bootstrap.js";
import { xoroshiro128plus } from "../../../src/calibration/stats/xoroshiro.js";

const SEEDS = [0, 1, -1, 42, 20_261_130, 0x7fffffff, -0x80000000];

describe("xoroshiro128plus", () => {
  it("gives pure-rand's numbers and states, one at a time, through next and clone", () => {
    for (const seed of SEEDS) {
      const ours = xoroshiro128plus(seed);
      const theirs = pureRand(seed);
      expect(ours.getState()).toEqual(theirs.getState());
      for (let i = 0; i < 5_000; i++) expect(ours.unsafeNext()).toBe(theirs.unsafeNext());
      const [a, nextOurs] = ours.next();
      const [b, nextTheirs] = theirs.next();
      expect(a).toBe(b);
      expect(nextOurs.getState()).toEqual(nextTheirs.getState());
      expect(ours.getState()).toEqual(theirs.getState()); // next leaves the generator as it was
      expect(ours.clone().unsafeNext()).toBe(theirs.clone().unsafeNext());
      // pure-rand's distributions draw from it as from their own
      expect(uniformIntDistribution(0, 999, ours)[0]).toBe(uniformIntDistribution(0, 999, theirs)[0]);
    }
  });

  it("fillUniform draws what unsafeUniformIntDistribution draws, in order, rejections included, and leaves the state where it would", () => {
    // sizes with no rejection (1, 2, 2^32), few, and about half the draws rejected (2^31 + 1)
    const sizes = [1, 2, 3, 7, 10, 1_000, 10_000, 65_536, 65_537, 0x80000001, 0xfffffffe, 0x100000000];
    for (const seed of SEEDS) {
      const ours = xoroshiro128plus(seed);
      const theirs = pureRand(seed);
      for (const size of sizes) {
        const n = 1 + ((size * 7 + seed) >>> 0) % 3_000;
        const out = size <= 0x10000 && seed % 2 === 0 ? new Uint16Array(n) : new Uint32Array(n);
        ours.fillUniform(size, out);
        const expected = Array.from({ length: n }, () => unsafeUniformIntDistribution(0, size - 1, theirs));
        expect([...out], `seed ${seed}, size ${size}`).toEqual(expected);
        expect(ours.getState()).toEqual(theirs.getState());
        expect(ours.unsafeNext()).toBe(theirs.unsafeNext());
      }
    }
  });
});

describe("the bootstrap's draws through xoroshiro128plus", () => {
  // What fillIndices drew before, one index at a time from pure-rand's generator.
  const pureIndices = (rng: ReturnType<typeof pureRand>, size: number, n: number) => Array.from({ length: n }, () => unsafeUniformIntDistribution(0, size - 1, rng));

  it("are pure-rand's for seeds past 32 bits and negative ones (taken to 32 bits as seededRng always took them), interleaved with single draws", () => {
    const seeds = [0x80000000, 0x80000005, 0xffffffff, 0x100000000, 0x100000007, 2 ** 40 + 3, -(2 ** 40) - 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, -0x80000001];
    for (const seed of seeds) {
      const ours = seededRng(seed);
      const theirs = pureRand(seed | 0);
      for (let r = 0; r < 30; r++) {
        // as roganGladenBootstrap draws: a resample, then further draws from the same generator
        const size = [1, 2, 3, 17, 65_536, 65_537, 0x80000001][r % 7]!;
        const n = 1 + ((r * 37) % 200);
        expect([...resampleIndices(ours, size, n)], `seed ${seed}, replicate ${r}`).toEqual(pureIndices(theirs, size, n));
        expect(unsafeUniformIntDistribution(0, 9, ours)).toBe(unsafeUniformIntDistribution(0, 9, theirs));
        expect(ours.unsafeNext()).toBe(theirs.unsafeNext());
      }
    }
  });

  it("give the intervals pure-rand's draws give: the paired bootstrap with and without a resample cache (16-bit indices), and bootstrapInterval", () => {
    const x = Array.from({ length: 40 }, (_, i) => ((i * 7919) % 13) / 13);
    const y = Array.from({ length: 40 }, (_, i) => ((i * 104_729) % 11) / 11);
    for (const seed of [7, -3, 0x80000001, 2 ** 33 + 1]) {
      const reps = 200;
      // the reference: each replicate's mean difference over indices drawn one at a time from pure-rand
      const rng = pureRand(seed | 0);
      const values: number[] = [];
      for (let r = 0; r < reps; r++) {
        const idx = pureIndices(rng, x.length, x.length);
        values.push(idx.reduce((s, i) => s + (x[i]! - y[i]!), 0) / x.length);
      }
      const expected = percentileInterval(values, reps, seed, 0.95);
      expect(pairedBootstrapMeanDifference(x, y, { seed, reps }).bootstrap, `seed ${seed}`).toEqual(expected);
      expect(pairedBootstrapMeanDifference(x, y, { seed, reps, resamples: new ResampleCache() }).bootstrap, `seed ${seed}, cached`).toEqual(expected);
      const mean = (idx: Uint32Array) => [...idx].reduce((s, i) => s + (x[i]! - y[i]!), 0) / idx.length;
      expect(bootstrapInterval(x.length, mean, { seed, reps }), `seed ${seed}, bootstrapInterval`).toEqual(expected);
    }
  });
});
