/**
 * Seeded (claim, question, references) cases for the alignment's regression
 * test (align.test.ts): invented words and sentences that exercise what the
 * alignment reads (numbers in every written form, codes, number words,
 * negations and contractions, capitalised names, Devanagari, abbreviations and
 * line breaks between sentences, list markers, claims with more than 31
 * distinct words, references sharing sentences, empty texts). The expected
 * alignments in test/fixtures/judge/align-cases.json were computed by the
 * implementation before its index was rewritten for speed; any change in a
 * feature, a missing word or the best passage fails the test.
 */
import { mulberry32 } from "../../helpers/seeded.js";

const WORDS = [
  "leave", "leaves", "earned", "casual", "month", "months", "service", "policy", "policies", "provides", "provided", "providing",
  "approval", "manager", "salary", "allowance", "daily", "travel", "claim", "claims", "receipt", "days", "year", "annual",
  "the", "a", "an", "of", "for", "to", "in", "on", "is", "are", "be", "can", "and", "or", "with", "by", "at", "it",
  "chutti", "vetan", "karmchari", "niyam", "x", "b", "quickly", "carried", "forward", "lapses", "donated", "colleagues",
  "छुट्टी", "वेतन", "कर्मचारी", "नियम", "दिन",
];
const NUMBERS = ["18", "1,500", "1,00,000", "3rd", "1.50", "2.5", "007", "31", "15", "१८", "12,500.75"];
const CODES = ["a4", "EL-7", "el7", "HR-204", "HR 204", "iso9001", "10am", "covid19", "h1n1"];
const NUMBER_WORDS = ["three", "eighteen", "ninety", "hundred", "zero"];
const NEGATIONS = ["not", "never", "can't", "won't", "don't", "no", "नहीं", "nahi", "cannot"];
const NAMES = ["Priya", "Sharma", "Rahul", "Verma", "Mumbai", "HR", "Delhi"];
const SYLLABLES = ["ka", "ri", "mo", "ten", "sul", "vi", "dor", "pa"];
const ENDS = [". ", "? ", "! ", ".\n", ".\n\n", "। ", ". ", ". ", "; "];
const ODD = ["e.g.", "U.S.", "etc.", "(see", "note)", "“quoted”", "it's", "employees'", "—", "[1]", "3.5"];

export interface AlignCase {
  claim: string;
  question: string;
  refs: string[];
}

/** `n` cases from `seed`. */
export function alignCases(n: number, seed: number): AlignCase[] {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const token = (): string => {
    const x = r();
    if (x < 0.62) return pick(WORDS);
    if (x < 0.72) return pick(NUMBERS);
    if (x < 0.78) return pick(CODES);
    if (x < 0.82) return pick(NUMBER_WORDS);
    if (x < 0.87) return pick(NEGATIONS);
    if (x < 0.94) return pick(NAMES);
    return pick(ODD);
  };
  const sentence = (len: number): string => {
    const w = Array.from({ length: len }, token);
    w[0] = w[0]!.charAt(0).toUpperCase() + w[0]!.slice(1);
    return w.join(" ");
  };
  const text = (sentences: number): string => {
    let t = r() < 0.1 ? "  " : "";
    for (let i = 0; i < sentences; i++) t += sentence(1 + Math.floor(r() * 14)) + (i + 1 < sentences || r() < 0.8 ? pick(ENDS) : "");
    return t;
  };
  const cases: AlignCase[] = [];
  for (let i = 0; i < n; i++) {
    const refs = Array.from({ length: Math.floor(r() * 6) }, () => (r() < 0.05 ? "" : text(1 + Math.floor(r() * 6))));
    if (refs.length > 1 && r() < 0.3) refs[1] = refs[0]!; // the same text twice
    let claim: string;
    const y = r();
    if (y < 0.35 && refs.some((t) => t.trim())) {
      // A sentence of a reference, sometimes edited: a word changed, a negation added, a number changed.
      const from = pick(refs.filter((t) => t.trim()));
      const parts = from.split(/(?<=[.?!।;])\s+/u).filter(Boolean);
      const words = pick(parts).split(" ");
      const edit = r();
      if (edit < 0.25) words[Math.floor(r() * words.length)] = token();
      else if (edit < 0.4) words.splice(1, 0, pick(NEGATIONS));
      else if (edit < 0.5) words.push(pick(NUMBERS));
      claim = words.join(" ");
    } else if (y < 0.45) claim = (r() < 0.5 ? pick(["1. ", "2) ", "(3) ", "- ", "• "]) : "") + sentence(1 + Math.floor(r() * 10)) + ".";
    else if (y < 0.55) {
      // More distinct content words than a 31-bit mask holds, some of them in the references.
      const own = Array.from({ length: 30 + Math.floor(r() * 12) }, (_, k) => `${pick(SYLLABLES)}${pick(SYLLABLES)}${"abcdefghijklmnopqrstuvwxyz"[k % 26]}${"klmnoprstu"[Math.floor(k / 26)]}`);
      if (refs.length) refs[0] = `${own.filter(() => r() < 0.5).join(" ")}. ${refs[0]}`;
      claim = own.join(" ") + ".";
    }
    else if (y < 0.6) claim = pick(["", " ", "4.", "!!!", "a", "EL-7"]);
    else claim = sentence(1 + Math.floor(r() * 18)) + pick([".", "", "?"]);
    const question = r() < 0.15 ? "" : sentence(2 + Math.floor(r() * 8)) + "?";
    cases.push({ claim, question, refs });
  }
  return cases;
}
