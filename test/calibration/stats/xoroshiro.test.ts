import { unsafeUniformIntDistribution, uniformIntDistribution, xoroshiro128plus as pureRand } from "pure-rand";
import { describe, expect, it } from "vitest";
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
