import { describe, expect, it } from "vitest";
import { interval } from "../../src/report/format.js";

describe("interval", () => {
  it("prints plain numbers with two decimals and shares in percent with one", () => {
    expect(interval({ lo: 0.4902, hi: 0.9433 })).toBe("[0.49, 0.94]");
    expect(interval({ lo: 0.4902, hi: 0.9433 }, true)).toBe("[49.0, 94.3]");
    expect(interval({ lo: -0.25, hi: 0.5 }, false, 3)).toBe("[-0.250, 0.500]");
    expect(interval(null)).toBe("n/a");
  });

  it("prints a bound that rounds to zero without a minus sign, as the gate's messages do (a kappa bound of -1e-17 is not negative)", () => {
    expect(interval({ lo: -1e-17, hi: 0.5 })).toBe("[0.00, 0.50]");
    expect(interval({ lo: -0.0001, hi: 0.5 })).toBe("[0.00, 0.50]");
    expect(interval({ lo: -0.0001, hi: 0 }, true)).toBe("[0.0, 0.0]");
    expect(interval({ lo: -0.006, hi: 0.5 })).toBe("[-0.01, 0.50]");
  });
});
