import { describe, expect, it } from "vitest";
import { chooseStrata, confidenceBand, neymanAllocation, stratumOf } from "../../../src/calibration/plan/strata.js";

describe("strata and Neyman allocation", () => {
  it("allocates in proportion to size times spread, at least 2 per stratum, at most its size, summing to n", () => {
    const a = neymanAllocation([{ name: "a", size: 900, sd: 0.2 }, { name: "b", size: 100, sd: 0.5 }], 100);
    expect(a.get("a")! + a.get("b")!).toBe(100);
    expect(a.get("b")).toBe(Math.round((100 * 50) / 230));
    const capped = neymanAllocation([{ name: "a", size: 900, sd: 0.01 }, { name: "b", size: 5, sd: 5 }, { name: "c", size: 50, sd: 0 }], 40);
    expect(capped.get("b")).toBe(5);
    expect(capped.get("c")).toBe(2);
    expect([...capped.values()].reduce((s, x) => s + x, 0)).toBe(40);
    // Fewer draws than floors: still one per stratum before any gets two.
    const few = neymanAllocation([{ name: "a", size: 10, sd: 1 }, { name: "b", size: 10, sd: 1 }, { name: "c", size: 10, sd: 1 }], 4);
    expect([...few.values()].sort()).toEqual([1, 1, 2]);
  });

  it("defines strata from the judge alone and coarsens them to fit the draw", () => {
    expect(confidenceBand(0.95)).toBe("sure");
    expect(confidenceBand(0.5)).toBe("unsure");
    expect(confidenceBand(undefined)).toBeUndefined();
    const items = [
      { variant: "a", verdict: "yes" as const, pYes: 0.9 }, { variant: "b", verdict: "yes" as const, pYes: 0.6 },
      { variant: "a", verdict: "no" as const, pYes: 0.1 }, { variant: "b", verdict: "no" as const },
    ];
    expect(stratumOf(items[1]!, { variant: true, band: true })).toBe("verdict yes · unsure · b");
    expect(chooseStrata(items, 10).names).toHaveLength(4);
    expect(chooseStrata(items, 2).names).toEqual(["verdict no", "verdict yes"]);
  });
});
