import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BOUNDS, describeBounds, MAX_TIMER_MS, readDecimal, readWhole, renderBoundsMarkdown } from "../../src/golden/bounds.js";
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
