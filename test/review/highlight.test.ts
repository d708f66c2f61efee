import { describe, expect, it } from "vitest";
import { asciiNormalisedWithMap, graphemeNormalisedWithMap, markAnchor, markCitations } from "../../src/review/highlight.js";
import { mulberry32 } from "../helpers/seeded.js";

describe("markAnchor", () => {
  it("marks the anchor on the original text, across case and white-space differences", () => {
    const segs = markAnchor("Leave: Unused  casual\nLEAVE lapses.", "unused casual leave");
    expect(segs).toEqual([{ text: "Leave: " }, { text: "Unused  casual\nLEAVE", mark: "anchor" }, { text: " lapses." }]);
  });

  it("matches decomposed accents against composed ones (NFKC, as normalise does)", () => {
    const segs = markAnchor("Le cafe\u0301 au lait est servi.", "café au lait");
    expect(segs.find((s) => s.mark)?.text).toBe("cafe\u0301 au lait");
  });

  it("marks every occurrence and leaves text without the anchor alone", () => {
    expect(markAnchor("a b. A  B.", "a b").filter((s) => s.mark === "anchor")).toHaveLength(2);
    expect(markAnchor("nothing here", "unused leave")).toEqual([{ text: "nothing here" }]);
    expect(markAnchor("text", undefined)).toEqual([{ text: "text" }]);
  });

  it("keeps the text complete: the segments concatenate to the input", () => {
    const t = "  Ünïcode   text with a phrase here and\ta PHRASE there  ";
    expect(markAnchor(t, "a phrase").map((s) => s.text).join("")).toBe(t);
  });
});

describe("markCitations", () => {
  const ctx = ["hr#1", "hr#2"];
  it("resolves [n] into the context and keeps id markers", () => {
    expect(markCitations("Lapses [2]. See [hr#1; 1].", ctx)).toEqual([
      { text: "Lapses " },
      { text: "[2]", mark: "cite", refs: ["hr#2"] },
      { text: ". See " },
      { text: "[hr#1; 1]", mark: "cite", refs: ["hr#1", "hr#1"] },
      { text: "." },
    ]);
  });

  it("flags a marker that names no context chunk", () => {
    const segs = markCitations("Wrong [7] and [other#3].", ctx);
    expect(segs.filter((s) => s.mark === "cite-unknown").map((s) => s.refs)).toEqual([["7"], ["other#3"]]);
  });

  it("marks but does not judge markers when the evidence has no context", () => {
    expect(markCitations("Lapses [1].", undefined)).toEqual([{ text: "Lapses " }, { text: "[1]", mark: "cite", refs: ["1"] }, { text: "." }]);
  });

  it("leaves an answer without markers as one plain segment", () => {
    expect(markCitations("No markers <b>here</b>.", ctx)).toEqual([{ text: "No markers <b>here</b>." }]);
  });
});

describe("the ASCII map of normalised text", () => {
  it("is the grapheme-by-grapheme map on 5,000 random ASCII texts (CR LF, every white space, capitals, controls)", () => {
    const next = mulberry32(20261206);
    const pieces = ["a", "B", "z", "Q", " ", "  ", "\t", "\n", "\r", "\r\n", "\v", "\f", ".", "-", "[1]", "\u0000", "\u007f", "Leave", "LAPSES"];
    for (let n = 0; n < 5000; n++) {
      let text = "";
      const len = Math.floor(next() * 12);
      for (let i = 0; i < len; i++) text += pieces[Math.floor(next() * pieces.length)];
      expect(asciiNormalisedWithMap(text), JSON.stringify(text)).toEqual(graphemeNormalisedWithMap(text));
    }
  });
});
