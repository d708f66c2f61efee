import { describe, expect, it } from "vitest";
import { overlap, overlapKmp } from "../../src/golden/document.js";
import { mulberry32 } from "../helpers/seeded.js";

function text(next: () => number, alphabet: string, max: number): string {
  const n = Math.floor(next() * max);
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

describe("overlap of consecutive chunks", () => {
  it("merges only on word boundaries", () => {
    expect(overlap("one two", "two three")).toBe(3);
    expect(overlap("twelve", "example")).toBe(0);
    expect(overlap("a b c", "a b c")).toBe(5);
    expect(overlap("", "x")).toBe(0);
    expect(overlap("x y", "")).toBe(0);
  });

  it("gives the prefix function's length on random and repetitive text", () => {
    const next = mulberry32(20261202);
    for (let i = 0; i < 20_000; i++) {
      // few letters and many spaces: long partial matches, the case the budget guards
      const alphabet = i % 3 === 0 ? "ab " : i % 3 === 1 ? "a " : "abc d\u0000";
      const a = text(next, alphabet, 40);
      const b = next() < 0.5 ? a.slice(Math.floor(next() * a.length)) + text(next, alphabet, 10) : text(next, alphabet, 40);
      expect(overlap(a, b), JSON.stringify([a, b])).toBe(overlapKmp(a, b));
    }
  });

  it("agrees on long repetitive text, where direct comparison gives up for the prefix function", () => {
    const a = `${"a ".repeat(5_000)}b`;
    expect(overlap(a, `${"a ".repeat(5_000)}c`)).toBe(overlapKmp(a, `${"a ".repeat(5_000)}c`));
    expect(overlap(a, "a a b x")).toBe(5);
  });
});
