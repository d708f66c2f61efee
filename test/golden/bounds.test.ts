import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOUNDS, describeBounds, MAX_TIMER_MS, readDecimal, readWhole, renderBoundsMarkdown, requireWithin } from "../../src/golden/bounds.js";
import { ROOT } from "../helpers/paths.js";

describe("readWhole: the one reading of a whole-number flag", () => {
  it("takes decimal digits, white space around them ignored", () => {
    expect(readWhole("42")).toBe(42);
    expect(readWhole(" 3")).toBe(3);
    expect(readWhole("3 ")).toBe(3);
    expect(readWhole("007")).toBe(7);
    expect(readWhole(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("refuses every other spelling of a number, and one past 2^53 - 1", () => {
    for (const bad of ["", " ", "1e3", "0x10", "+3", "-3", "3.0", "2.5", "ten", "1_000", "Infinity", "9007199254740992", "99999999999999999999"]) expect(readWhole(bad), bad).toBeUndefined();
  });
});

describe("readDecimal", () => {
  it("takes digits with an optional fraction", () => {
    expect(readDecimal("0.7")).toBe(0.7);
    expect(readDecimal(".5")).toBe(0.5);
    expect(readDecimal(" 2 ")).toBe(2);
  });

  it("refuses a sign, an exponent, hex and words", () => {
    for (const bad of ["-1", "+1", "1e3", "0x1", "NaN", "Infinity", "", "1.2.3"]) expect(readDecimal(bad), bad).toBeUndefined();
  });
});

describe("BOUNDS", () => {
  it("keeps every timer-backed number within Node's timer limit", () => {
    expect(BOUNDS.timeoutMs.max).toBe(MAX_TIMER_MS);
    expect(BOUNDS.pollInterval.max * 1000).toBeLessThanOrEqual(MAX_TIMER_MS);
  });

  it("gives every number a reason for its largest value and a way to set it", () => {
    for (const [name, b] of Object.entries(BOUNDS)) {
      expect(b.why, name).not.toBe("");
      expect(b.flags.length, name).toBeGreaterThan(0);
      expect(b.min, name).toBeLessThan(b.max);
    }
  });

  it("is the README's table of numbers, row for row", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(renderBoundsMarkdown());
  });
});

describe("describeBounds", () => {
  it("names both ends where the ceiling means something, and the floor alone where it is the largest exact JSON number", () => {
    expect(describeBounds(BOUNDS.concurrency)).toBe("a whole number from 1 to 1,024");
    expect(describeBounds({ ...BOUNDS.concurrency, max: Number.MAX_SAFE_INTEGER })).toBe("a positive whole number");
    expect(describeBounds({ ...BOUNDS.concurrency, min: 0, max: Number.MAX_SAFE_INTEGER })).toBe("a whole number of 0 or more");
    expect(describeBounds({ ...BOUNDS.concurrency, integer: false, min: 0, max: Number.MAX_SAFE_INTEGER })).toBe("a number of 0 or more");
    // digits grouped by hand (no Intl at start-up), the fraction left alone
    expect(describeBounds({ ...BOUNDS.concurrency, integer: false, min: -1500, max: 1234.5678 })).toBe("a number from -1,500 to 1,234.5678");
    expect(describeBounds({ ...BOUNDS.concurrency, max: 2_147_483_647 })).toBe("a whole number from 1 to 2,147,483,647");
  });
});

describe("requireWithin: the guard of the library's entry points", () => {
  it("returns a value within its bounds, the edges included, and passes undefined through", () => {
    expect(requireWithin("reps", 100, BOUNDS.bootstrapReps)).toBe(100);
    expect(requireWithin("reps", 100_000, BOUNDS.bootstrapReps)).toBe(100_000);
    expect(requireWithin("temperature", 1.5, BOUNDS.temperature)).toBe(1.5);
    expect(requireWithin("reps", undefined, BOUNDS.bootstrapReps)).toBeUndefined();
  });

  it("throws a RangeError naming the value and the values allowed, with why the largest is the largest when it is passed", () => {
    expect(() => requireWithin("reps", 1e9, BOUNDS.bootstrapReps)).toThrow(new RangeError(`reps: 1000000000 is out of range: expected a whole number from 100 to 100,000 (${BOUNDS.bootstrapReps.why})`));
    expect(() => requireWithin("concurrency", 0, BOUNDS.concurrency)).toThrow(new RangeError("concurrency: 0 is out of range: expected a whole number from 1 to 1,024"));
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 2.5, -1]) expect(() => requireWithin("k", bad, BOUNDS.cutoff), String(bad)).toThrow(RangeError);
    // a JavaScript caller's string is no number
    expect(() => requireWithin("k", "5" as unknown as number, BOUNDS.cutoff)).toThrow('k: "5" is out of range: expected a positive whole number');
  });
});
