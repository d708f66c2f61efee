import { describe, expect, it } from "vitest";
import { canonicalNumber, digitRuns, hasNumberChar, isCode, toAsciiDigits } from "../../../src/judge/baseline/numbers.js";
import { isStopWord } from "../../../src/judge/baseline/stopwords.js";
import { analyse, indexSources, stem, termOf, tokenise } from "../../../src/judge/baseline/tokens.js";

describe("numbers", () => {
  it.each([
    ["18", "18"], ["1,500", "1500"], ["1,25,000", "125000"], ["1.50", "1.5"], ["10.0", "10"], ["3rd", "3"], ["007", "007"],
  ])("canonicalNumber(%s) = %s", (input, expected) => expect(canonicalNumber(input)).toBe(expected));

  it.each(["v2", "a4", "abc", "1.2.3", "12,3"])("%s is not a number", (t) => expect(canonicalNumber(t)).toBeUndefined());

  it("hasNumberChar answers as /\\p{N}/u, and canonicalNumber's first-character exit as its regexes, on ASCII and other scripts", () => {
    // every code point class a token can hold: ASCII, Latin-1, superscripts, Devanagari, Arabic-Indic and fullwidth digits, Roman numerals, circled numbers
    const alphabet = [..."az09AZ.,_-é²³¹½०९٣０Ⅻⅻ①ab", "\u0000", "\u007f", "\u0080"];
    let x = 12345;
    const next = () => (x = (x * 48271) % 2147483647);
    const tokens = ["", "1", "a", "3rd", "1,500", "1.50", "007", "१८", "x²"];
    for (let i = 0; i < 5000; i++) tokens.push(Array.from({ length: 1 + (next() % 6) }, () => alphabet[next() % alphabet.length]!).join(""));
    const ORDINAL = /^(\d+)(?:st|nd|rd|th)$/u;
    const GROUPED = /^\d{1,3}(?:,\d{2,3})+(?:\.\d+)?$/u;
    const PLAIN = /^\d+(?:\.\d+)?$/u;
    for (const t of tokens) {
      expect(hasNumberChar(t), t).toBe(/\p{N}/u.test(t));
      const anyForm = ORDINAL.test(t) || GROUPED.test(t) || PLAIN.test(t.replace(/,/gu, ""));
      if (!anyForm) expect(canonicalNumber(t), t).toBeUndefined();
    }
  });

  it("Devanagari digits become ASCII", () => expect(toAsciiDigits("१८ दिन")).toBe("18 दिन"));

  it("codes mix letters and digits", () => {
    expect(isCode("a4")).toBe(true);
    expect(isCode("h1n1")).toBe(true);
    expect(isCode("3rd")).toBe(false);
    expect(isCode("leave")).toBe(false);
    expect(digitRuns("h1n1")).toEqual(["1", "1"]);
  });
});

describe("tokenise", () => {
  it("normalises, expands contractions and drops possessives", () => {
    expect(tokenise("The Employee's leave CAN'T exceed 1,500 days; don't ask")).toEqual(["the", "employee", "leave", "cannot", "exceed", "1,500", "days", "do", "not", "ask"]);
  });
  it("keeps codes whole and splits hyphenated words", () => {
    expect(tokenise("Form HR-204, size A4, at 10am; well-known")).toEqual(["form", "hr", "204", "size", "a4", "at", "10am", "well", "known"]);
  });
  it("keeps Devanagari words with their vowel signs and reads Devanagari digits", () => {
    expect(tokenise("छुट्टी १८ दिन की है।")).toEqual(["छुट्टी", "18", "दिन", "की", "है"]);
  });
  it("treats curly apostrophes like straight ones", () => expect(tokenise("doesn\u2019t")).toEqual(["does", "not"]));
});

describe("stem", () => {
  it.each([
    ["policies", "policy"], ["provides", "provid"], ["provided", "provid"], ["providing", "provid"], ["leave", "leav"], ["leaves", "leav"],
    ["class", "class"], ["bus", "bus"], ["day", "day"], ["chhutti", "chhutti"], ["छुट्टियाँ", "छुट्टियाँ"],
  ])("%s -> %s", (w, s) => expect(stem(w)).toBe(s));
});

describe("stop words", () => {
  it.each(["the", "which", "का", "में", "hai", "kya", "kitne"])("%s is a stop word", (w) => expect(isStopWord(w.normalize("NFKC"))).toBe(true));
  it.each(["leave", "main", "छुट्टी", "chhutti"])("%s is not", (w) => expect(isStopWord(w)).toBe(false));
});

describe("analyse", () => {
  it("separates content words, numbers, codes and negation", () => {
    const a = analyse("You do not get 18 days of earned leave under form A4; three days only.");
    expect(a.words).toEqual(["day", "earn", "leav", "form", "3"]);
    expect(a.numbers).toEqual(["18"]);
    expect(a.codes).toEqual(["a4"]);
    expect(a.negated).toBe(true);
  });
  it("is not negated without a negation", () => expect(analyse("Leave lapses on 31 December.").negated).toBe(false));
  it("reads Hindi and romanised negations", () => {
    expect(analyse("छुट्टी आगे नहीं बढ़ती").negated).toBe(true);
    expect(analyse("chhutti aage nahi badhti").negated).toBe(true);
  });
});

describe("indexSources", () => {
  const idx = indexSources(["Submit form HR 204 within three days of joining (covid19 rules)."]);
  it("records number words and digits inside codes as numbers", () => {
    expect(idx.numbers.has("3")).toBe(true);
    expect(idx.numbers.has("19")).toBe(true);
    expect(idx.numbers.has("204")).toBe(true);
  });
  it("records adjacent tokens glued together as codes", () => expect(idx.codes.has("hr204")).toBe(true));
  it("does not invent numbers", () => expect(idx.numbers.has("4")).toBe(false));
});

describe("termOf", () => {
  it("classifies a token as a number, a code, a content word or nothing, and marks negations", () => {
    expect(termOf("policies")).toEqual({ negation: false, kind: "word", value: "policy" });
    expect(termOf("1,500")).toEqual({ negation: false, kind: "number", value: "1500" });
    expect(termOf("3rd")).toEqual({ negation: false, kind: "number", value: "3" });
    expect(termOf("a4")).toEqual({ negation: false, kind: "code", value: "a4" });
    expect(termOf("three")).toEqual({ negation: false, kind: "word", value: "3" });
    expect(termOf("not")).toEqual({ negation: true, value: "" });
    expect(termOf("the")).toEqual({ negation: false, value: "" });
    expect(termOf("x")).toEqual({ negation: false, value: "" });
    expect(termOf("छुट्टी")).toEqual({ negation: false, kind: "word", value: "छुट्टी" });
  });

  it("gives the same answer from memory as the first time, past its size limit too", () => {
    const first = Array.from({ length: 70_000 }, (_, i) => `w${i.toString(36)}x`).map((t) => ({ ...termOf(t) }));
    expect(termOf("policies")).toEqual({ negation: false, kind: "word", value: "policy" });
    expect(Array.from({ length: 70_000 }, (_, i) => ({ ...termOf(`w${i.toString(36)}x`) }))).toEqual(first);
  });
});
