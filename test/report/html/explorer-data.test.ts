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
