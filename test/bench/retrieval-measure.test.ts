import { describe, expect, it } from "vitest";
import { describePaired, pairedRatio } from "../../bench/retrieval-measure.js";

describe("pairedRatio", () => {
  it("takes the median of the round-by-round ratios and counts the rounds the first side was lower", () => {
    expect(pairedRatio([8, 9, 10], [10, 9, 12])).toEqual({ median: 0.8333333333333334, lower: 2, rounds: 3 });
    // a drift both sides of each round share cancels, one slow round on one side does not move the median
    const drift = [10, 14, 10, 13, 12];
    const fast = drift.map((x, i) => x * (i === 1 ? 1.5 : 0.95));
    expect(pairedRatio(fast, drift)).toEqual({ median: 0.95, lower: 4, rounds: 5 });
    expect(describePaired(pairedRatio([8, 9, 10], [10, 9, 12]))).toBe("0.83 (lower in 2 of 3 rounds)");
  });

  it.each([
    [[], []],
    [[1, null], [1, 2]],
    [[1], [0]],
  ])("is n/a without rounds or with a missing figure: %j / %j", (a, b) => {
    expect(pairedRatio(a, b)).toBeNull();
    expect(describePaired(pairedRatio(a, b))).toBe("n/a");
  });
});
