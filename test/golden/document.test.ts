import { describe, expect, it } from "vitest";
import { chunksHolding, documentLayout, overlap, overlapKmp } from "../../src/golden/document.js";
import { normalise } from "../../src/golden/normalise.js";
import { indexChunks } from "../../src/golden/relevance.js";
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

  it("gives the prefix function's length on texts of words, where b's first word recurs in a", () => {
    const next = mulberry32(20261203);
    const vocabulary = ["ab", "a", "abab", "b", "ba", "aab"];
    const words = (n: number) => Array.from({ length: 1 + Math.floor(next() * n) }, () => vocabulary[Math.floor(next() * vocabulary.length)]!).join(" ");
    for (let i = 0; i < 20_000; i++) {
      const a = words(30);
      const cut = a.split(" ").slice(Math.floor(next() * 30)).join(" ");
      const b = next() < 0.6 && cut !== "" ? `${cut} ${words(8)}` : words(30);
      expect(overlap(a, b), JSON.stringify([a, b])).toBe(overlapKmp(a, b));
    }
  });

  it("agrees on long repetitive text, where direct comparison gives up for the prefix function", () => {
    const a = `${"a ".repeat(5_000)}b`;
    expect(overlap(a, `${"a ".repeat(5_000)}c`)).toBe(overlapKmp(a, `${"a ".repeat(5_000)}c`));
    expect(overlap(a, "a a b x")).toBe(5);
  });
});

describe("documentLayout", () => {
  /** The layout as first written: the growing text itself searched for each overlap. */
  function naiveLayout(norms: string[]): { text: string; spans: { id: string; start: number; end: number }[] } {
    let text = "";
    const spans: { id: string; start: number; end: number }[] = [];
    norms.forEach((norm, i) => {
      if (text === "") {
        text = norm;
        spans.push({ id: `c${i}`, start: 0, end: norm.length });
        return;
      }
      const k = overlapKmp(text, norm);
      const start = k > 0 ? text.length - k : text.length + 1;
      text = k > 0 ? text + norm.slice(k) : `${text} ${norm}`;
      spans.push({ id: `c${i}`, start, end: start + norm.length });
    });
    return { text, spans };
  }

  it("rebuilds documents as the growing-text layout does, short and long, with empty and overlapping chunks", () => {
    const next = mulberry32(7);
    const words = ["one", "two", "three", "a", "b", "x y", ""];
    for (let d = 0; d < 400; d++) {
      const n = d % 50 === 0 ? 300 : 1 + Math.floor(next() * 12);
      const norms: string[] = [];
      for (let i = 0; i < n; i++) {
        const prev = norms[i - 1] ?? "";
        const cut = prev.lastIndexOf(" ", Math.floor(next() * prev.length));
        const lead = next() < 0.5 && cut > 0 ? prev.slice(cut + 1) : "";
        const own = Array.from({ length: Math.floor(next() * 6) }, () => words[Math.floor(next() * words.length)]).join(" ").trim();
        norms.push([lead, own].filter(Boolean).join(" "));
      }
      const chunks = norms.map((text, i) => ({ id: `c${i}`, doc: "d", text }));
      expect(documentLayout(indexChunks(chunks), "d"), JSON.stringify(norms)).toEqual(naiveLayout(norms.map(normalise)));
    }
  });
});

describe("chunksHolding", () => {
  it("names the chunks whose normalised text holds the needle, as a scan of every chunk does (random, repetitive, overlapping chunks)", () => {
    const rand = mulberry32(19);
    const words = ["a", "b", "a b", "ab", "c"];
    for (let round = 0; round < 600; round++) {
      const n = 1 + Math.floor(rand() * 6);
      const chunks = Array.from({ length: n }, (_, i) => ({
        id: `d#${i}`,
        doc: "d",
        text: Array.from({ length: Math.floor(rand() * 7) }, () => words[Math.floor(rand() * words.length)]).join(rand() < 0.2 ? "\n " : " "),
      }));
      const index = indexChunks(chunks);
      const layout = documentLayout(index, "d");
      const needle = normalise(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => words[Math.floor(rand() * words.length)]).join(" "));
      const scan = index.byDoc.get("d")!.filter((e) => e.norm.includes(needle)).map((e) => e.chunk.id);
      expect(chunksHolding(layout, needle), JSON.stringify({ chunks, needle })).toEqual(scan);
    }
  });

  it("finds a chunk that holds only an occurrence overlapping an earlier one, and a chunk placed before the one listed before it", () => {
    // "a a a" then "a a" (merged on its last three characters): the second holds "a a" only at 2, which overlaps the one at 0
    const overlapping = indexChunks([{ id: "c0", doc: "d", text: "a a a" }, { id: "c1", doc: "d", text: "a a" }]);
    expect(chunksHolding(documentLayout(overlapping, "d"), "a a")).toEqual(["c0", "c1"]);
    // c2 overlaps the text's tail past c1, so its span starts before c1's
    const back = indexChunks([{ id: "c0", doc: "d", text: "p q r s" }, { id: "c1", doc: "d", text: "t" }, { id: "c2", doc: "d", text: "s t u" }]);
    const layout = documentLayout(back, "d");
    expect(layout.spans[2]!.start).toBeLessThan(layout.spans[1]!.start);
    expect(chunksHolding(layout, "s t")).toEqual(["c2"]);
    expect(chunksHolding(layout, "t")).toEqual(["c1", "c2"]);
  });

  it("an empty needle is held by no chunk", () => {
    const index = indexChunks([{ id: "x", doc: "d", text: "one two" }]);
    expect(chunksHolding(documentLayout(index, "d"), "")).toEqual([]);
  });
});
