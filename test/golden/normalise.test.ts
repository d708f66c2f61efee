import { describe, expect, it } from "vitest";
import { countOccurrences, isAscii, normalise } from "../../src/golden/normalise.js";

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

describe("isAscii", () => {
  it("answers as /^[\\x00-\\x7f]*$/ does, at every code unit's edge and on strings of each kind", () => {
    const byRegex = (t: string) => /^[\x00-\x7f]*$/.test(t);
    const units = [0x00, 0x41, 0x7f, 0x80, 0xe9, 0xff, 0x100, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfeff, 0xfffd, 0xffff];
    const cases = ["", "leave policy", "café", "a\u00A0b", "😀", "x\ud800", "\udc00y", "\ud83d\ude00 ok"];
    for (const u of units) for (const at of ["", "ascii before "]) cases.push(at + String.fromCharCode(u), String.fromCharCode(u) + at);
    // a one-byte string built by slicing and joining, and a two-byte one with only ASCII left in it
    cases.push(("é" + "a".repeat(300)).slice(1), ["a", "b"].join("\u0100").replace("\u0100", ""));
    for (const t of cases) expect(isAscii(t), JSON.stringify(t)).toBe(byRegex(t));
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 5000; i++) {
      let t = "";
      for (let k = next() % 30; k > 0; k--) t += String.fromCharCode(next() % 8 === 0 ? next() % 0x10000 : next() % 0x80);
      expect(isAscii(t), JSON.stringify(t)).toBe(byRegex(t));
    }
  });
});
