import { describe, expect, it } from "vitest";
import type { Chunk } from "../../src/golden/schema/golden.js";
import { buildBm25 } from "../../scripts/example/bm25.js";
import { chunkDocument } from "../../scripts/example/chunker.js";
import { parseDoc } from "../../scripts/example/corpus.js";
import { fuseRrf } from "../../scripts/example/fusion.js";
import { rankByScore, roundScore } from "../../scripts/example/ranking.js";
import { buildReranker, minimalWindow, RERANK_TOP } from "../../scripts/example/rerank.js";
import { contentStems, crudeStem, indexTerms, rawTokens } from "../../scripts/example/text.js";
import { splitSentences, splitUnits } from "../../scripts/example/units.js";
import { buildVector } from "../../scripts/example/vector.js";
import { corpus } from "./helpers.js";

const slices = (text: string) => splitSentences(text, 0).map(([s, e]) => text.slice(s, e));

describe("sentence and unit splitting", () => {
  it("does not cut at abbreviations, version numbers or lower-case continuations", () => {
    expect(slices("Tarang Systems Pvt. Ltd. pays it. Version 3.9.1 fixed it, e.g. the list. Done")).toEqual([
      "Tarang Systems Pvt. Ltd. pays it.",
      "Version 3.9.1 fixed it, e.g. the list.",
      "Done",
    ]);
  });

  it("cuts after the danda and after closing emphasis", () => {
    expect(slices("छुट्टी साथी पर मिलती है। दो दिन।")).toEqual(["छुट्टी साथी पर मिलती है।", "दो दिन।"]);
    expect(slices("**TUN-101: it failed.** Usually the network blocks it.")).toEqual(["**TUN-101: it failed.**", "Usually the network blocks it."]);
  });

  it("keeps a code fence whole and makes each list item a unit", () => {
    const text = "Run:\n\n```\na. B\n\nc\n```\n\n- one. Two\n- three\n";
    const units = splitUnits(text, 0, text.length).map((u) => [text.slice(u.start, u.end), u.blockStart]);
    expect(units).toEqual([["Run:", true], ["```\na. B\n\nc\n```", true], ["- one. Two", true], ["- three", false]]);
  });
});

describe("chunking", () => {
  const doc = parseDoc("d", "# Title\n\nIntro sentence one. Intro two.\n\n## First\n\nAlpha beta gamma. Delta epsilon.\n\nZeta eta theta.\n\n## Second\n\nIota kappa.\n");

  it("never crosses a section, keeps whole units within the limit, and slices the document verbatim", () => {
    const chunks = chunkDocument(doc, { maxChars: 40, headings: false });
    expect(chunks.map((c) => c.text)).toEqual(["Intro sentence one. Intro two.", "Alpha beta gamma. Delta epsilon.", "Zeta eta theta.", "Iota kappa."]);
    expect(chunks.map((c) => c.id)).toEqual(["d#0", "d#1", "d#2", "d#3"]);
    expect(chunks.map((c) => c.meta?.section)).toEqual(["Title", "First", "First", "Second"]);
    for (const c of chunks) expect(doc.text).toContain(c.text);
  });

  it("keeps the contextual header as heading when asked", () => {
    const chunks = chunkDocument(doc, { maxChars: 800, headings: true });
    expect(chunks.map((c) => [c.heading, c.text])).toEqual([
      ["Title", "Intro sentence one. Intro two."],
      ["Title > First", "Alpha beta gamma. Delta epsilon.\n\nZeta eta theta."],
      ["Title > Second", "Iota kappa."],
    ]);
  });

  it("chunks the shipped corpus within each variant's limit", () => {
    for (const [maxChars, headings] of [[350, false], [800, true]] as const) {
      for (const d of corpus()) {
        for (const c of chunkDocument(d, { maxChars, headings })) {
          expect(c.text.length, c.id).toBeLessThanOrEqual(maxChars);
          expect(c.text.trim()).toBe(c.text);
        }
      }
    }
  });
});

describe("tokens and terms", () => {
  it("keeps identifiers whole and also indexes their parts", () => {
    expect(rawTokens("Run `tunnelctl up --tcp-fallback` for ERR-4031.")).toEqual(["run", "tunnelctl", "up", "tcp-fallback", "for", "err-4031"]);
    expect(indexTerms("err-4031")).toEqual(["err-4031", "err", "4031"]);
    expect(indexTerms("the")).toEqual([]);
    expect(indexTerms("है")).toEqual([]);
    expect(rawTokens("परिवीक्षा अवधि")).toEqual(["परिवीक्षा", "अवधि"]);
  });

  it("stems crudely enough to match inflections", () => {
    expect(crudeStem("banking")).toBe("bank");
    expect(crudeStem("leaves")).toBe(crudeStem("leave"));
    expect([...contentStems("The leaves are carried")]).toEqual(["leav", "carri"]);
  });
});

const chunks: Chunk[] = [
  { id: "a#0", doc: "a", text: "ERR-4031 means the key lacks the scope this endpoint requires." },
  { id: "b#0", doc: "b", text: "Your whole unused earned leave balance is encashed when you leave." },
  { id: "c#0", doc: "c", text: "The cafeteria serves lunch from noon; lunch costs sixty rupees." },
  { id: "d#0", doc: "d", text: "The scope of this page is the lunch menu and the key holders." },
];

describe("retrievers", () => {
  it("BM25 finds an identifier by its whole form and by its number", () => {
    const bm25 = buildBm25(chunks);
    expect(bm25.search("ERR-4031")[0]!.id).toBe("a#0");
    expect(bm25.search("what is 4031")[0]!.id).toBe("a#0");
    expect(bm25.search("the of")).toEqual([]);
  });

  it("n-gram vectors reach a morphological variant BM25 cannot", () => {
    expect(buildBm25(chunks).search("encashment").map((e) => e.id)).not.toContain("b#0");
    expect(buildVector(chunks).search("encashment")[0]!.id).toBe("b#0");
  });

  it("RRF sums 1/(60 + rank) over the lists", () => {
    const fused = fuseRrf([
      [{ id: "a", score: 9 }, { id: "b", score: 5 }, { id: "c", score: 1 }],
      [{ id: "c", score: 0.9 }, { id: "a", score: 0.1 }],
    ]);
    expect(fused).toEqual([
      { id: "a", score: roundScore(1 / 61 + 1 / 62) },
      { id: "c", score: roundScore(1 / 63 + 1 / 61) },
      { id: "b", score: roundScore(1 / 62) },
    ]);
  });

  it("ranks ties by chunk id after rounding", () => {
    expect(rankByScore([{ id: "b", score: 1.0000001 }, { id: "a", score: 1 }, { id: "c", score: 2 }])).toEqual([
      { id: "c", score: 2 },
      { id: "a", score: 1 },
      { id: "b", score: 1 },
    ]);
  });

  it("measures the shortest window holding the query terms", () => {
    const pos = [["lunch"], ["x"], ["cost"], ["y"], ["lunch"], ["cost"]];
    expect(minimalWindow(pos, new Set(["lunch", "cost"]))).toEqual({ distinct: 2, window: 2 });
    expect(minimalWindow(pos, new Set(["lunch", "zzz"]))).toEqual({ distinct: 1, window: 0 });
  });

  it("reranks only the fused head, prefers close query terms, and keeps the tail's order and scores", () => {
    const reranker = buildReranker(chunks);
    const fused = [
      { id: "d#0", score: 0.03 },
      { id: "c#0", score: 0.02 },
      { id: "a#0", score: 0.01 },
    ];
    const out = reranker.rerank("lunch costs", fused);
    expect(out[0]!.id).toBe("c#0");
    expect(out.every((e) => e.score >= 1)).toBe(true);
    const long = Array.from({ length: RERANK_TOP + 3 }, (_, i) => ({ id: chunks[i % 4]!.id + (i >= 4 ? `x${i}` : ""), score: 1 / (61 + i) }));
    const many = buildReranker([...chunks, ...long.slice(4).map((e) => ({ id: e.id, doc: "z", text: "filler words only" }))]);
    const re = many.rerank("lunch", long);
    expect(re.slice(RERANK_TOP)).toEqual(long.slice(RERANK_TOP).map((e) => ({ id: e.id, score: roundScore(e.score) })));
    expect(re.slice(0, RERANK_TOP).every((e) => e.score >= 1)).toBe(true);
  });
});
