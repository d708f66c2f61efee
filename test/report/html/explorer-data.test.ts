import { describe, expect, it } from "vitest";
import { explorerData, type ChunkLookup } from "../../../src/report/html/sections/explorer.js";
import { ITEMS_SCHEMA, type ItemRecord } from "../../../src/report/items/schema.js";

/** An item of `variant` with its context chunks and further retrieved ids. */
function item(variant: string, question: string, context: { id: string; text: string }[], retrieved: string[]): ItemRecord {
  return {
    schema: ITEMS_SCHEMA, variant, question, text: `text of ${question}`, kind: "fact", tags: [], split: null, answerable: true,
    outcome: "ok", because: "", relevantInContext: true, firstRelevantRank: 1, miss: null, reference: null, answer: null, citations: [],
    anchor: null, relevant: [],
    context: context.map((c, i) => ({ position: i + 1, id: c.id, doc: "d", heading: null, text: c.text, relevant: false, anchorAt: [], cited: false })),
    retrieved: [...context.map((c) => c.id), ...retrieved].map((id, i) => ({ rank: i + 1, id, relevant: false, inContext: i < context.length, stages: {} })),
    stages: [], rubrics: [], review: `ragjudge review --item ${variant}/${question}`,
  };
}

describe("explorerData's chunk table", () => {
  it("keeps one entry per variant and chunk id, in order of first use, with each variant's own text", () => {
    const texts: Record<string, string> = { "a/x": "x in a", "a/y": "y in a", "b/x": "x in b (another chunker)", "b/z": "z in b" };
    const chunkOf: ChunkLookup = (variant, id) => (texts[`${variant}/${id}`] === undefined ? undefined : { doc: "d", text: texts[`${variant}/${id}`]! });
    const data = explorerData([
      item("a", "q1", [{ id: "x", text: "x in a" }], ["y"]),
      item("b", "q1", [{ id: "x", text: "x in b (another chunker)" }], ["z", "gone"]),
      item("a", "q2", [{ id: "y", text: "y in a" }], ["x"]),
    ], chunkOf);
    expect(data.evidence.chunks.map(([id, , , text]) => [id, text])).toEqual([
      ["x", "x in a"], ["y", "y in a"], ["x", "x in b (another chunker)"], ["z", "z in b"], ["gone", ""],
    ]);
    // each item's retrieved list refers to its own variant's entries
    const refs = (data.evidence.items as { ret: [number, number][] }[]).map((e) => e.ret.map(([, ref]) => ref));
    expect(refs).toEqual([[0, 1], [2, 3, 4], [1, 0]]);
  });
});

describe("explorer evidence", () => {
  it("carries every field the page reads: stage ranks and nulls, answers with resolved citations, misses and rubrics", () => {
    const it0 = item("a", "q1", [{ id: "x", text: "x in a" }], ["y", "w"]);
    it0.stages = ["bm25", "vector"];
    it0.retrieved = it0.retrieved.map((r, i) => ({ ...r, relevant: i === 1, stages: { bm25: i + 3, ...(i === 2 ? {} : { vector: i === 0 ? null : 7 }) } }));
    it0.answer = 'Leave lapses [1] and "more" [2; y].';
    it0.miss = { failure: "ranking", fix: null, proposal: "p", why: "w </script>", evidence: "e" };
    it0.rubrics = [{ rubric: "faithfulness", verdict: "no", units: [{ unit: "answer", verdict: "no", reason: "r\u2028", judge: "llm", fingerprint: "f", model: "m", error: null, rule: null, inputHash: "h", claim: "c" }], labels: [{ unit: "answer", label: "yes", annotator: "asha", provenance: "human", frame: "f", time: "t", note: null }] }];
    const data = explorerData([it0, item("a", "q2", [], ["x"])]);
    const [e0, e1] = data.evidence.items as Record<string, unknown>[];
    expect(Object.keys(e0!)).toEqual(["ref", "ans", "anchor", "because", "ctx", "stages", "ret", "miss", "rub", "rev"]);
    expect(e0!.ret).toEqual([[1, 0, 0, 1, [3, null]], [2, 1, 1, 0, [4, 7]], [3, 2, 0, 0, [5, null]]]);
    expect((e1!.ret as unknown[][])[0]).toEqual([1, 0, 0, 0, []]);
    expect((e0!.ans as unknown[][]).map((s) => s[0])).toEqual(["Leave lapses ", "[1]", ' and "more" ', "[2; y]", "."]);
    expect(e0!.miss).toEqual(it0.miss);
    expect(e0!.rub).toEqual([["faithfulness", "no", [["answer", "no", 0, "r\u2028", null, null, "c"]], [["answer", "yes", "asha", "human", "f", "t", null]]]]);
    expect(data.evidence.judges).toEqual([["llm", "f", "m"]]);
  });
});
