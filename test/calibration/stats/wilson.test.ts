import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../../../src/calibration/stats/wilson.js";

describe("wilsonInterval", () => {
  it("gives the Wilson score interval (8 of 10 at 95%: 0.490 to 0.943), and null for no trials", () => {
    const ci = wilsonInterval(8, 10)!;
    expect(ci.lo).toBeCloseTo(0.4902, 4);
    expect(ci.hi).toBeCloseTo(0.9433, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(0, 5)!.lo).toBe(0);
    expect(wilsonInterval(5, 5)!.hi).toBe(1);
  });

  it.each([
    [5, 3, "Wilson interval: successes (5) cannot exceed the number of trials (3)"],
    [-2, 10, "Wilson interval: successes must be a whole number >= 0, got -2"],
    [2, -10, "Wilson interval: the number of trials must be a whole number >= 0, got -10"],
    [1.5, 10, "Wilson interval: successes must be a whole number >= 0, got 1.5"],
    [1, 2.5, "Wilson interval: the number of trials must be a whole number >= 0, got 2.5"],
    [Number.NaN, 10, "Wilson interval: successes must be a whole number >= 0, got NaN"],
    [1, Number.POSITIVE_INFINITY, "Wilson interval: the number of trials must be a whole number >= 0, got Infinity"],
  ])("refuses %s successes of %s trials with a RangeError naming the count, instead of NaN bounds", (k, n, message) => {
    expect(() => wilsonInterval(k, n)).toThrow(RangeError);
    expect(() => wilsonInterval(k, n)).toThrow(message);
  });
});
