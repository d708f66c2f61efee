import { describe, expect, it } from "vitest";
import { splitSentences } from "../../src/golden/citations.js";

/** What splitSentences is defined as: Unicode sentence segmentation, each segment trimmed, empty ones dropped. */
const segmenter = new Intl.Segmenter("und", { granularity: "sentence" });
const reference = (text: string) => [...segmenter.segment(text)].map((s) => s.segment.trim()).filter(Boolean);

/** Seeded strings heavy in what decides sentence breaks: terminators, closers, spaces, line breaks, capitals, and non-ASCII terminators and separators. */
function strings(n: number, seed: number): string[] {
  let a = seed >>> 0;
  const r = () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
  const parts = ["abc", "Def", "x", "Q", "12", "3.5", " ", " ", "  ", ".", ".", "!", "?", "...", ")", "]", '"', "'", "(", ",", ";", ":", "-", "\t", "\n", "\r\n", "\v", "\f", "\u0085", "\u2028", "\u2029", "।", "。", "…", "\u00a0", "é", "e.g.", "U.S.", "#", "~"];
  const ascii = () => String.fromCharCode(32 + Math.floor(r() * 95));
  return Array.from({ length: n }, () => {
    let s = "";
    const len = Math.floor(r() * 14);
    for (let i = 0; i < len; i++) s += r() < 0.2 ? ascii() : parts[Math.floor(r() * parts.length)]!;
    return s;
  });
}

describe("splitSentences", () => {
  it("gives exactly the segmenter's trimmed sentences, with and without the one-sentence shortcut", () => {
    // A heading, then lines of one sentence each: the shape of most chunks as the baseline reads them.
    const lines = strings(6_000, 7).map((t, i) => `Section ${i}: leave rules\n${t.replace(/[.!?\n\r\u0080-\uffff]/gu, "")}${i % 3 ? "." : ""}${i % 5 ? "" : "\n\nAnother line!"}`);
    const texts = [...strings(30_000, 20261203), ...lines, "", " ", "One sentence.", "One sentence. ", "One sentence.) ", "Two. Sentences.", "No end", "Ends?! ", 'Quote."  ', "a.b", "Line\nbreak", "tab\tend."];
    const differing = texts.filter((t) => JSON.stringify(splitSentences(t)) !== JSON.stringify(reference(t)));
    expect(differing).toEqual([]);
    // Both paths ran: texts the shortcut takes, and texts only the segmenter splits.
    const plainLines = (t: string) => t.split("\n").every((l) => !/[.!?\r\v\f\u0000-\u0008\u000e-\u001f\u007f-\uffff]/.test(l.replace(/[.!?]*["')\]]*[\t ]*$/, "")));
    expect(texts.filter((t) => plainLines(t) && !t.includes("\n") && reference(t).length === 1).length).toBeGreaterThan(1000);
    expect(texts.filter((t) => plainLines(t) && reference(t).length > 1).length).toBeGreaterThan(3000);
    expect(texts.filter((t) => reference(t).length > 1).length).toBeGreaterThan(1000);
  });

  it("keeps each sentence trimmed and drops empty ones", () => {
    expect(splitSentences("  Leave lapses.  It is not carried forward. ")).toEqual(["Leave lapses.", "It is not carried forward."]);
    expect(splitSentences("Leave lapses")).toEqual(["Leave lapses"]);
    expect(splitSentences("   ")).toEqual([]);
  });
});
