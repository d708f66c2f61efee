import { describe, expect, it } from "vitest";
import { normalise } from "../../src/golden/normalise.js";
import { hasStem, stemSet, wordTokens } from "../../src/golden/words.js";
import { mulberry32 } from "../helpers/seeded.js";

// Pieces a text is built of, a character or a few at a time, so that words run into each other and into marks:
// stemming's endings; astral letters and an emoji; combining marks; NFKC forms that change letters or their count
// (ligatures, full-width, Kelvin and Ohm signs, superscripts, a fraction, the long s); letters whose lower case is
// longer (dotted capital I) or other (final sigma, capital sharp s); Devanagari with virama and nukta; digits of
// other scripts; lone surrogates; and characters that are not word characters (ZWJ, ZWNJ, soft hyphen, no-break and
// ideographic spaces).
const PIECES = [
  "a", "b", "c", "e", "s", "y", "i", "d", "n", "g", "r", "ie", "ies", "ied", "ing", "ed", "es", "ss", "us", "is", "carr", "stud", " ", ", ", "-",
  "\u0301", "\u0300", "\u0345", "\u{20000}", "\u{1F600}", "\u{1D49C}", "\u{10400}", "ｆ", "Ａ", "ﬁ", "ﬃ", "ﬅ", "\u2126", "\u212A", "ſ", "²", "½", "ª",
  "ⅰ", "Ⅸ", "㎏", "İ", "ß", "ẞ", "Σ", "ς", "ǅ", "ŉ", "ΐ", "मा", "न", "क", "्", "\u093C", "1", "٣", "\uD800", "\uDC00", "\u200D", "\u200C", "\u00AD",
  "\u00A0", "\u3000", "Y", "I", "E", "S",
];

describe("hasStem", () => {
  it("answers as stemSet(text).has(stem) for the normalised text, for every stem, prefix and tail of its words, the empty stem and stems ending in y", () => {
    const next = mulberry32(20261209);
    let checked = 0;
    for (let round = 0; round < 4_000; round++) {
      let text = "";
      for (let i = 1 + Math.floor(next() * 12); i > 0; i--) text += PIECES[Math.floor(next() * PIECES.length)];
      const norm = normalise(text);
      const stems = stemSet(text);
      const asked = new Set<string>(["", "y", ...stems]);
      for (const t of wordTokens(text)) {
        for (let i = 0; i <= t.length; i++) {
          asked.add(t.slice(0, i));
          asked.add(`${t.slice(0, i)}y`);
          asked.add(t.slice(i));
        }
      }
      for (const stem of asked) {
        expect(hasStem(norm, stem), `${JSON.stringify(stem)} in ${JSON.stringify(text)} (normalised ${JSON.stringify(norm)})`).toBe(stems.has(stem));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50_000);
  });

  it("finds a word only where it starts: after an astral letter, a combining mark or a Devanagari sign it is the same word", () => {
    expect(hasStem(normalise("\u{20000}carried"), "carry")).toBe(false);
    expect(hasStem(normalise("\u{1F600}carried"), "carry")).toBe(true); // an emoji is no word character
    expect(hasStem(normalise("e\u0301carried"), "carry")).toBe(false);
    expect(hasStem(normalise("क्carried"), "carry")).toBe(false);
    expect(hasStem(normalise("\u200Dcarried"), "carry")).toBe(true);
    expect(hasStem(normalise("ﬁles"), "fil")).toBe(true); // the ligature is "fi" once normalised
    expect(hasStem(normalise("studies"), "study")).toBe(true);
    expect(hasStem(normalise("studs"), "study")).toBe(false);
    expect(hasStem(normalise("carry carrot"), "")).toBe(false);
  });
});
