import { describe, expect, it } from "vitest";
import type { MissRow } from "../../../src/retrieval/diagnostics/misses.js";
import { decidability, recommend, summariseMisses } from "../../../src/retrieval/diagnostics/summary.js";
import { FIX_TABLE, type FailureKind } from "../../../src/retrieval/diagnostics/taxonomy.js";
import { emptyEvidence } from "../../../src/retrieval/diagnostics/text.js";
import { HYBRID } from "./build.js";

function miss(question: string, kind: string, failure: FailureKind): MissRow {
  return { question, kind, anchor: null, relevant: [], ranks: [], failure, fix: FIX_TABLE[failure].fix, proposal: "", why: "", text: emptyEvidence(), evidence: "", ambiguity: null, neighbour: null, missingOutput: false };
}

const ANSWERABLE = new Map([["conceptual", 4], ["factual", 4], ["lexical", 4]]);

describe("summariseMisses", () => {
  const rows = [
    miss("c1", "conceptual", "vocabulary-gap"),
    miss("c2", "conceptual", "vocabulary-gap"),
    miss("c3", "conceptual", "chunk-boundary"),
    miss("f1", "factual", "ranking"),
  ];
  const s = summariseMisses(rows, ANSWERABLE, 10, HYBRID, false);

  it("counts and shares overall, every kind listed in precedence order", () => {
    expect(s.overall.answerable).toBe(12);
    expect(s.overall.misses).toBe(4);
    expect(s.overall.counts.map((c) => [c.failure, c.count, c.share])).toEqual([
      ["anchor-ambiguity", 0, 0],
      ["reranker-demotion", 0, 0],
      ["chunk-boundary", 1, 0.25],
      ["ranking", 1, 0.25],
      ["vocabulary-gap", 2, 0.5],
      ["undecided", 0, 0],
    ]);
  });

  it("by kind, including a kind with no miss", () => {
    expect(s.byKind.map((d) => [d.kind, d.answerable, d.misses])).toEqual([
      ["conceptual", 4, 3],
      ["factual", 4, 1],
      ["lexical", 4, 0],
    ]);
    const c = s.byKind[0]!.counts.find((x) => x.failure === "vocabulary-gap")!;
    expect(c.share).toBeCloseTo(2 / 3, 12);
    expect(s.byKind[2]!.counts.every((x) => x.share === 0)).toBe(true);
  });

  it("recommends the most common kind's fix", () => {
    expect(s.recommendation).toBe("most misses are vocabulary-gap (2 of 4): try better-embedder (or query-rewrite, contextual-chunk-headers).");
  });
});

describe("recommend", () => {
  const dist = (rows: MissRow[]) => summariseMisses(rows, ANSWERABLE, 10, HYBRID, true).overall;
  it("names every tied kind", () => {
    expect(recommend(dist([miss("a", "factual", "ranking"), miss("b", "factual", "chunk-boundary")]))).toBe(
      "chunk-boundary and ranking tie (1 of 2 misses each): chunk-boundary: try contextual-chunk-headers (or smaller-chunks); ranking: try hybrid-weights.",
    );
  });
  it("sends anchor ambiguity to the golden set, not to retrieval", () => {
    expect(recommend(dist([miss("a", "factual", "anchor-ambiguity")]))).toBe(
      "most misses are anchor-ambiguity (1 of 1): correct the golden set's anchors before tuning retrieval.",
    );
  });
  it("ignores undecided rows for the choice, and counts them", () => {
    expect(recommend(dist([miss("a", "factual", "undecided"), miss("b", "factual", "undecided"), miss("c", "factual", "ranking")]))).toBe(
      "most misses are ranking (1 of 3): try hybrid-weights. 2 of 3 misses are undecided (see each row's reason).",
    );
    expect(recommend(dist([miss("a", "factual", "undecided")]))).toMatch(/^no miss could be classified from the evidence/);
  });
  it("no misses", () => {
    expect(recommend(dist([]))).toBe("no misses: every answerable question has a relevant chunk in the top k");
  });
});

describe("decidability", () => {
  it("bm25-small: only chunk-boundary and vocabulary-gap", () => {
    const d = decidability({ first: ["bm25"] }, false);
    expect(d.decidable).toEqual(["chunk-boundary", "vocabulary-gap"]);
    expect(d.undecidable.map((u) => u.failure)).toEqual(["anchor-ambiguity", "reranker-demotion", "ranking"]);
  });
  it("hybrid with verdicts: every kind", () => {
    expect(decidability(HYBRID, true)).toEqual({
      decidable: ["anchor-ambiguity", "reranker-demotion", "chunk-boundary", "ranking", "vocabulary-gap"],
      undecidable: [],
    });
  });
  it("no stages: chunk-boundary only", () => {
    expect(decidability({ first: [] }, false).decidable).toEqual(["chunk-boundary"]);
  });
});

describe("FIX_TABLE", () => {
  it("proposes only fixes from the seed's fixed list", () => {
    const fixes = new Set(["hybrid-weights", "smaller-chunks", "contextual-chunk-headers", "query-rewrite", "better-embedder"]);
    for (const [kind, e] of Object.entries(FIX_TABLE)) {
      if (e.fix !== null) expect(fixes.has(e.fix), kind).toBe(true);
      for (const a of e.alternatives) expect(fixes.has(a), kind).toBe(true);
      expect(e.why.length, kind).toBeGreaterThan(20);
    }
    expect(FIX_TABLE["anchor-ambiguity"].fix).toBeNull();
    expect(FIX_TABLE.undecided.fix).toBeNull();
  });
});
