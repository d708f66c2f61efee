import { describe, expect, it } from "vitest";
import { countOccurrences, normalise } from "../../src/golden/normalise.js";

describe("normalise", () => {
  const vectors: [string, string, string][] = [
    ["collapses white space and trims", "  Hello\t\tWORLD \n", "hello world"],
    ["no-break and ideographic spaces", "a\u00a0b\u3000c\u2009d", "a b c d"],
    ["line and paragraph separators", "a\u2028b\u2029c", "a b c"],
    ["composed and decomposed accents agree", "Cafe\u0301", "café"],
    ["upper-case accented letters", "ÉLÈVE À Ç", "élève à ç"],
    ["full-width forms fold (NFKC)", "ＡＢＣ１２３", "abc123"],
    ["ligature folds (NFKC)", "\ufb01le", "file"],
    ["Devanagari nukta composes: \u0915\u093c = \u0958 under NFKC", "\u0915\u093c\u093e\u0928\u0942\u0928", "\u0958\u093e\u0928\u0942\u0928".normalize("NFKC")],
    ["Devanagari text keeps its letters and danda", "  छुट्टी   नियम ।", "छुट्टी नियम ।"],
    ["romanised Hindi lower-cases", "Chhutti KA Niyam", "chhutti ka niyam"],
    ["German sharp s stays (toLowerCase, not case folding)", "STRAßE", "straße"],
  ];
  for (const [name, input, expected] of vectors) {
    it(name, () => expect(normalise(input)).toBe(expected));
  }

  it("is idempotent", () => {
    for (const [, input] of vectors) expect(normalise(normalise(input))).toBe(normalise(input));
  });

  it("Devanagari nukta: decomposed and precomposed forms match", () => {
    expect(normalise("\u0958")).toBe(normalise("\u0915\u093c"));
  });
});

describe("countOccurrences", () => {
  it("counts normalised, non-overlapping occurrences", () => {
    expect(countOccurrences("A b. a  B.", "a b")).toBe(2);
    expect(countOccurrences("aaaa", "aa")).toBe(2);
    expect(countOccurrences("x", "")).toBe(0);
  });
});

describe("normalise on ASCII (its fast path)", () => {
  it("equals the full NFKC, lower-case and white-space steps on random ASCII text, control characters and line breaks included", () => {
    const full = (t: string) => t.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    const alphabet = " ~aZ09.,;  -_()[]{}#\t\n\r\v\f\x00\x1c\x1f\x7f";
    for (let i = 0; i < 20000; i++) {
      let t = "";
      const n = next() % 40;
      for (let k = 0; k < n; k++) t += next() % 3 === 0 ? alphabet[next() % alphabet.length] : String.fromCharCode(next() % 128);
      expect(normalise(t)).toBe(full(t));
    }
  });
});
