import { describe, expect, it } from "vitest";
import { relevantSets } from "../../../src/golden/dataset.js";
import { relevantSet } from "../../../src/golden/relevance.js";
import type { StageRoles } from "../../../src/golden/schema/config.js";
import type { GoldenQuestion } from "../../../src/golden/schema/golden.js";
import type { Verdict } from "../../../src/golden/schema/items.js";
import type { PipelineOutput } from "../../../src/golden/schema/pipeline.js";
import { analyseMisses, isRetrievalMiss, missCandidates, type MissRow } from "../../../src/retrieval/diagnostics/misses.js";
import { FIX_TABLE } from "../../../src/retrieval/diagnostics/taxonomy.js";
import { at, fill, HYBRID, out, place, q, TEXT_CHUNKS, textQ, unanswerable, variant } from "./build.js";

const K = 10;
const DEPTH = 50;

/** q-hr's anchor is in hr#1 only; hr#0 is its sibling (same document, no anchor); the question shares "days" with both. */
const QHR = q("q-hr", "hr", "unused days cannot be carried forward to the next year", "conceptual", { question: "What happens to the days I never took?" });
const QFIN = q("q-fin", "fin", "receipts must be attached to every single claim", "factual");
/** A question whose words "casual" and "leave" sit only in the heading of leave#0, the chunk before its anchor's. */
const CASUAL = textQ("q-casual", "Does casual leave carry over?", "leave", "Unused days cannot be carried forward to the next year");

/** One hybrid miss of q-casual over the text corpus. */
function casual(lists: { bm25: string[]; vector: string[]; fused: string[]; reranked: string[] }): MissRow {
  const rows = analyse([CASUAL], [out("q-casual", lists.reranked, lists)], HYBRID, undefined, TEXT_CHUNKS);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

function analyse(questions: GoldenQuestion[], outputs: PipelineOutput[], stages: Partial<StageRoles>, ambiguity?: Map<string, Verdict>, chunks = undefined as Parameters<typeof variant>[3]): MissRow[] {
  const v = variant(outputs, stages, "test", chunks);
  const rel = relevantSets({ questions }, v.chunks);
  return analyseMisses(questions, rel, v, { k: K, poolDepth: DEPTH, ...(ambiguity ? { ambiguity } : {}) });
}

/** One hybrid miss of q-hr from its four stage lists; `retrieved` is the reranked list. */
function hybrid(lists: { bm25: string[]; vector: string[]; fused: string[]; reranked: string[] }, ambiguity?: Map<string, Verdict>): MissRow {
  const rows = analyse([QHR], [out("q-hr", lists.reranked, lists)], HYBRID, ambiguity);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe("isRetrievalMiss and missCandidates", () => {
  const list = ["a", "b", "c"];
  it("is a miss only when no relevant chunk is in the top k", () => {
    expect(isRetrievalMiss(new Set(["c"]), list, 2)).toBe(true);
    expect(isRetrievalMiss(new Set(["c"]), list, 3)).toBe(false);
    expect(isRetrievalMiss(new Set(["x", "b"]), list, 2)).toBe(false);
    expect(isRetrievalMiss(new Set(), list, 3)).toBe(true);
  });
  it("candidates are the top-k ids without the relevant ones, in rank order", () => {
    expect(missCandidates(list, new Set(["b"]), 3)).toEqual(["a", "c"]);
    expect(missCandidates(list, new Set(["b"]), 1)).toEqual(["a"]);
  });
});

describe("each failure kind on a constructed case", () => {
  it("reranker-demotion: fused had it at 3, the reranker put it at 12", () => {
    const m = hybrid({ bm25: at("hr#1", 4), vector: at("hr#1", 9), fused: at("hr#1", 3), reranked: at("hr#1", 12) });
    expect(m.failure).toBe("reranker-demotion");
    expect(m.fix).toBe("hybrid-weights");
    expect(m.why).toBe("fused had hr#1 at rank 3 (top 10); reranked ranks it at 12");
    expect(m.ranks.map((r) => [r.name, r.role, r.status === "absent" ? null : r.rank])).toEqual([
      ["bm25", "first", 4],
      ["vector", "first", 9],
      ["fused", "fused", 3],
      ["reranked", "reranked", 12],
      ["retrieved", "retrieved", 12],
    ]);
  });

  it("ranking: in the fused pool at 23, below the top 10, no sibling high", () => {
    const m = hybrid({ bm25: at("hr#1", 18), vector: at("hr#1", 0), fused: at("hr#1", 23), reranked: at("hr#1", 25) });
    expect(m.failure).toBe("ranking");
    expect(m.fix).toBe("hybrid-weights");
    expect(m.why).toBe("in fused at rank 23 (within depth 50) but below the top 10; bm25 18, vector absent");
  });

  it("ranking: a first-stage list had it within depth and fusion dropped it from the pool", () => {
    const m = hybrid({ bm25: at("hr#1", 0), vector: at("hr#1", 30), fused: at("hr#1", 0, 40), reranked: at("hr#1", 0, 40) });
    expect(m.failure).toBe("ranking");
    expect(m.why).toBe("vector had it at rank 30 (within depth 50) but fused ranks it nowhere (absent)");
  });

  it("a neighbour ranking 1 without the question's words is no boundary: vocabulary-gap, and the reason says why", () => {
    const m = hybrid({ bm25: place({ "hr#0": 1 }), vector: fill(60), fused: place({ "hr#0": 2 }), reranked: place({ "hr#0": 4 }) });
    expect(m.failure).toBe("vocabulary-gap");
    expect(m.neighbour).toEqual({ chunk: "hr#0", doc: "hr", relation: "adjacent", list: "bm25", rank: 1 });
    expect(m.why).toBe(
      "absent from bm25 and vector within depth 50; the anchor's chunk hr#1 holds \"days\" of the question's words; no chunk beside it holds the others; hr#0, beside the anchor's chunk, ranks 1 in bm25 but holds none of the question's words the anchor's chunk lacks, so the cut hid nothing",
    );
  });

  it("vocabulary-gap: absent from bm25 and vector within depth, no sibling in any top 10", () => {
    const m = hybrid({ bm25: place({ "hr#0": 14 }), vector: fill(60), fused: place({ "hr#0": 20 }), reranked: fill(60) });
    expect(m.failure).toBe("vocabulary-gap");
    expect(m.fix).toBe("better-embedder");
    expect(m.neighbour).toBeNull();
    expect(m.evidence).toBe("the anchor's chunk hr#1 holds \"days\" of the question's words; no chunk beside it holds the others");
    expect(m.why).toBe(`absent from bm25 and vector within depth 50; no other chunk of hr ranks in the top 10; ${m.evidence}`);
  });

  it("vocabulary-gap: beyond the pool depth counts as not reached, and the rank is kept", () => {
    const m = hybrid({ bm25: at("hr#1", 73, 80), vector: fill(60), fused: fill(60), reranked: fill(60) });
    expect(m.failure).toBe("vocabulary-gap");
    expect(m.why).toBe(`not in bm25 or vector within depth 50 (bm25 >50 (73)); no other chunk of hr ranks in the top 10; ${m.evidence}`);
    expect(m.ranks[0]).toEqual({ name: "bm25", role: "first", status: "beyond-depth", rank: 73, chunk: "hr#1" });
  });

  it("anchor-ambiguity: decided only by a supplied 'yes' verdict", () => {
    const lists = { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) };
    expect(hybrid(lists).failure).toBe("vocabulary-gap");
    const m = hybrid(lists, new Map([["q-hr", "yes"]]));
    expect(m.failure).toBe("anchor-ambiguity");
    expect(m.fix).toBeNull();
    expect(m.proposal).toMatch(/^correct the golden set/);
    expect(m.ambiguity).toBe("yes");
    expect(m.why).toMatch(/^the anchor-ambiguity judge says a top-10 chunk without the anchor answers the question/);
  });
});

describe("precedence", () => {
  it("anchor-ambiguity beats reranker-demotion (a top-k chunk answers: retrieval did not fail)", () => {
    const lists = { bm25: at("hr#1", 4), vector: at("hr#1", 9), fused: at("hr#1", 3), reranked: at("hr#1", 12) };
    expect(hybrid(lists, new Map([["q-hr", "yes"]])).failure).toBe("anchor-ambiguity");
  });

  it("a 'no' or 'error' verdict falls through to the rank rules", () => {
    const lists = { bm25: at("hr#1", 4), vector: at("hr#1", 9), fused: at("hr#1", 3), reranked: at("hr#1", 12) };
    expect(hybrid(lists, new Map([["q-hr", "no"]])).failure).toBe("reranker-demotion");
    const e = hybrid(lists, new Map([["q-hr", "error"]]));
    expect(e.failure).toBe("reranker-demotion");
    expect(e.ambiguity).toBe("error");
  });

  it("reranker-demotion beats chunk-boundary (the loss is pinned to the last stage)", () => {
    const m = casual({ bm25: place({ "leave#1": 5 }), vector: fill(60), fused: place({ "leave#1": 6 }), reranked: place({ "leave#1": 11 }) });
    expect(m.failure).toBe("reranker-demotion");
  });

  it("chunk-boundary beats ranking when the anchor's chunk is in no list's top k", () => {
    const m = casual({ bm25: place({ "leave#0": 1, "leave#1": 14 }), vector: fill(60), fused: place({ "leave#0": 1, "leave#1": 20 }), reranked: place({ "leave#0": 2, "leave#1": 22 }) });
    expect(m.failure).toBe("chunk-boundary");
    expect(m.why).toMatch(/in no list's top 10 \(best: bm25 14\); leave#0 ranks 1 in bm25$/);
  });

  it("no chunk-boundary when the anchor's chunk is in a first-stage top k: the words matched, fusion lost it", () => {
    const m = casual({ bm25: place({ "leave#0": 1, "leave#1": 5 }), vector: fill(60), fused: place({ "leave#0": 1, "leave#1": 15 }), reranked: place({ "leave#0": 1, "leave#1": 16 }) });
    expect(m.failure).toBe("ranking");
  });

  it("chunk-boundary beats vocabulary-gap (a boundary miss also looks like a gap), and needs no neighbour in any list", () => {
    const m = casual({ bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) });
    expect(m.failure).toBe("chunk-boundary");
    expect(m.neighbour).toBeNull();
    expect(m.why).toMatch(/; it is in no list's top 10 \(absent from every list\)$/);
  });

  it("every miss gets exactly one kind with its table fix", () => {
    const rows = analyse(
      [QHR, QFIN],
      [
        out("q-hr", at("hr#1", 12), { bm25: at("hr#1", 4), vector: fill(60), fused: at("hr#1", 3), reranked: at("hr#1", 12) }),
        out("q-fin", fill(60), { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) }),
      ],
      HYBRID,
    );
    expect(rows.map((r) => [r.question, r.failure, r.fix])).toEqual([
      ["q-hr", "reranker-demotion", FIX_TABLE["reranker-demotion"].fix],
      ["q-fin", "vocabulary-gap", FIX_TABLE["vocabulary-gap"].fix],
    ]);
  });
});

describe("chunk-boundary is read from the text", () => {
  const BM25 = { first: ["bm25"] };
  const one = (question: GoldenQuestion, bm25: string[]) => analyse([question], [out(question.id, bm25, { bm25 })], BM25, undefined, TEXT_CHUNKS)[0]!;

  it("the question's words sit in the heading of the chunk before the anchor's: the words and where are shown", () => {
    const m = one(CASUAL, place({ "leave#0": 3 }));
    expect(m.failure).toBe("chunk-boundary");
    expect(m.fix).toBe("contextual-chunk-headers");
    expect(m.text).toEqual({
      queryWords: ["casual", "leave", "carry"],
      anchorChunks: ["leave#1"],
      inAnchorChunk: ["carry"],
      across: [
        { word: "casual", chunk: "leave#0", where: "heading", side: "previous" },
        { word: "leave", chunk: "leave#0", where: "heading", side: "previous" },
      ],
      split: null,
    });
    expect(m.evidence).toBe("the question's words \"casual\" (heading of leave#0, previous chunk) and \"leave\" (heading of leave#0, previous chunk) sit beside the anchor's chunk leave#1, which holds only \"carry\"");
    expect(m.why).toBe(`${m.evidence}; it is in no list's top 10 (absent from every list); leave#0 ranks 3 in bm25`);
  });

  it("an anchor split across two chunks: chunk-boundary with each side's part, though no chunk is relevant", () => {
    const split = textQ("q-split", "How fast are travel claims paid?", "claims", "paid within thirty days of approval by the finance team");
    const m = one(split, place({ "claims#0": 2, "claims#1": 40 }));
    expect(m.relevant).toEqual([]);
    expect(m.failure).toBe("chunk-boundary");
    expect(m.text.split).toEqual([
      { chunk: "claims#0", text: "paid within thirty days" },
      { chunk: "claims#1", text: "of approval by the finance team" },
    ]);
    expect(m.why).toBe(
      "the anchor is cut by a chunk boundary: claims#0 holds \"paid within thirty days\", claims#1 holds \"of approval by the finance team\"; no chunk holds it whole, so no chunk is relevant (best ranks: claims#0 bm25 2, claims#1 bm25 40)",
    );
  });

  it("an anchor that is simply not in its document stays undecided: that is a golden-set mistake, not a cut", () => {
    const bad = textQ("q-bad", "How fast are travel claims paid?", "claims", "paid within forty days of approval by the finance team");
    const m = one(bad, fill(60));
    expect(m.failure).toBe("undecided");
    expect(m.text.split).toBeNull();
    expect(m.proposal).toMatch(/^correct the anchor/);
  });

  it("a neighbour that is another section (its own heading) is not evidence, however well it matches and ranks", () => {
    const hook = textQ("q-hook", "My slow handler processes each delivery before replying: what instead?", "webhooks", "Do the real work asynchronously: put the event on a queue and return at once");
    const m = one(hook, place({ "webhooks#1": 1 }));
    expect(m.failure).toBe("vocabulary-gap");
    expect(m.text.across).toEqual([]);
    expect(m.why).toContain("webhooks#1 ranks 1 in bm25 but is another section (\"Webhooks > Duplicates\"), so no cut separated its words from the anchor");
  });

  it("one common word beside the anchor's chunk is not enough: vocabulary-gap, with the word and the neighbour's rank", () => {
    const remote = textQ("q-remote", "Can I spend a fortnight at my sister's place in Dubai and log in from there?", "remote", "Even a week abroad with a laptop needs prior approval from the security team");
    const m = one(remote, place({ "remote#0": 2 }));
    expect(m.failure).toBe("vocabulary-gap");
    expect(m.text.across).toEqual([{ word: "spend", chunk: "remote#0", where: "text", side: "previous" }]);
    expect(m.why).toContain("remote#0, beside the anchor's chunk, ranks 2 in bm25 but holds only \"spend\" of the question's words, too few to call the cut the cause");
  });

  it("a question of one content word needs only that word across the cut", () => {
    const short = textQ("q-casual", "Casual?", "leave", "Unused days cannot be carried forward to the next year");
    expect(one(short, fill(60)).failure).toBe("chunk-boundary");
  });

  it("the next chunk counts as the previous one does; without the question's words, its rank proves nothing", () => {
    const m = one(textQ("q-next", "What about tokens?", "leave", "Unused days cannot be carried forward to the next year"), place({ "leave#2": 1 }));
    expect(m.failure).toBe("chunk-boundary");
    expect(m.text.across).toEqual([{ word: "tokens", chunk: "leave#2", where: "text", side: "next" }]);
    const far = one(textQ("q-far2", "Which portal do I use?", "leave", "Unused days cannot be carried forward to the next year"), place({ "leave#2": 1 }));
    expect(far.failure).toBe("vocabulary-gap");
    expect(far.why).toContain("leave#2, beside the anchor's chunk, ranks 1 in bm25 but holds none of the question's words the anchor's chunk lacks");
  });
});

describe("which questions are analysed", () => {
  it("leaves out hits and unanswerable questions, keeps golden order", () => {
    const rows = analyse(
      [QFIN, unanswerable("q-none"), QHR],
      [out("q-fin", fill(60)), out("q-none", fill(60)), out("q-hr", at("hr#1", 10))],
      {},
    );
    expect(rows.map((r) => r.question)).toEqual(["q-fin"]);
  });

  it("a question without an output line is an undecided miss, never a vocabulary gap", () => {
    const rows = analyse([QHR], [], HYBRID);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.failure).toBe("undecided");
    expect(rows[0]!.missingOutput).toBe(true);
    expect(rows[0]!.why).toMatch(/no pipeline output line/);
  });

  it("an anchor no chunk contains is undecided and says so", () => {
    const bad = q("q-bad", "hr", "this phrase is in no chunk of the document", "factual");
    const rows = analyse([bad], [out("q-bad", fill(60), { bm25: fill(60) })], { first: ["bm25"] });
    expect(rows[0]!.failure).toBe("undecided");
    expect(rows[0]!.why).toBe("no chunk of hr contains the anchor in this chunks file (ragjudge validate reports it)");
  });

  it("with several relevant chunks, each list shows its best-ranked one", () => {
    const two = q("q-sec", "sec", "badges must be worn visibly at all times inside the building", "lexical");
    const rows = analyse([two], [out("q-sec", place({ "sec#1": 12, "sec#0": 30 }), { bm25: place({ "sec#0": 20, "sec#1": 40 }) })], { first: ["bm25"] });
    expect(rows[0]!.relevant.sort()).toEqual(["sec#0", "sec#1"]);
    expect(rows[0]!.ranks).toEqual([
      { name: "bm25", role: "first", status: "ranked", rank: 20, chunk: "sec#0" },
      { name: "retrieved", role: "retrieved", status: "ranked", rank: 12, chunk: "sec#1" },
    ]);
  });
});

describe("single first-stage list, no fused list (bm25-small)", () => {
  const BM25 = { first: ["bm25"] };
  const one = (list: string[]) => analyse([QHR], [out("q-hr", list, { bm25: list })], BM25)[0]!;

  it("found within depth but below k: undecided, says a vocabulary gap is ruled out, and still proposes the fix both kinds share", () => {
    const m = one(at("hr#1", 15));
    expect(m.failure).toBe("undecided");
    expect(m.fix).toBe("hybrid-weights");
    expect(m.proposal).toBe("try hybrid-weights (ranking and reranker-demotion both call for it); declare stages.fused to tell them apart");
    expect(m.why).toBe(
      "bm25 has it at rank 15 (within depth 50), so not a vocabulary gap; ranking and reranker-demotion need a fused list (stages.fused), which this variant does not declare",
    );
  });

  it("absent within depth: vocabulary-gap", () => {
    expect(one(fill(60)).failure).toBe("vocabulary-gap");
  });

  it("words across the cut: chunk-boundary, even when the anchor's chunk is in the list below k", () => {
    const m = analyse([CASUAL], [out("q-casual", place({ "leave#0": 2, "leave#1": 15 }), { bm25: place({ "leave#0": 2, "leave#1": 15 }) })], BM25, undefined, TEXT_CHUNKS)[0]!;
    expect(m.failure).toBe("chunk-boundary");
    expect(m.neighbour?.rank).toBe(2);
  });
});

describe("no declared stages", () => {
  it("only chunk-boundary (and anchor-ambiguity) can be decided; an undecided row still proposes a fix from what the final list shows", () => {
    const none = analyse([QHR], [out("q-hr", fill(60))], {})[0]!;
    expect(none.failure).toBe("undecided");
    expect(none.why).toMatch(/^no first-stage list is declared/);
    expect(none.fix).toBe("better-embedder");
    expect(none.proposal).toMatch(/^likely a vocabulary gap \(retrieved does not reach it within depth 50\)/);
    expect(none.ranks.map((r) => r.name)).toEqual(["retrieved"]);
    const found = analyse([QHR], [out("q-hr", at("hr#1", 20))], {})[0]!;
    expect([found.failure, found.fix]).toEqual(["undecided", "hybrid-weights"]);
    const text = analyse([CASUAL], [out("q-casual", place({ "leave#0": 3 }))], {}, undefined, TEXT_CHUNKS)[0]!;
    expect(text.failure).toBe("chunk-boundary");
    expect(text.neighbour?.list).toBe("retrieved");
  });

  it("stage lists present in the output but not declared are not read", () => {
    const m = analyse([QHR], [out("q-hr", fill(60), { fused: at("hr#1", 2) })], {})[0]!;
    expect(m.failure).toBe("undecided");
  });
});

describe("a pool depth below k", () => {
  it("top-k membership does not depend on the depth", () => {
    const v = variant([out("q-hr", at("hr#1", 12), { bm25: at("hr#1", 4), vector: fill(60), fused: at("hr#1", 6), reranked: at("hr#1", 12) })], HYBRID);
    const rel = new Map([["q-hr", relevantSet(QHR, v.chunks)]]);
    const m = analyseMisses([QHR], rel, v, { k: 10, poolDepth: 3 })[0]!;
    expect(m.ranks.find((r) => r.name === "fused")).toMatchObject({ status: "beyond-depth", rank: 6 });
    expect(m.failure).toBe("reranker-demotion");
  });
});
