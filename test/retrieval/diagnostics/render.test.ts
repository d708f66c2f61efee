import { describe, expect, it } from "vitest";
import { diagnoseVariant, type VariantDiagnostics } from "../../../src/retrieval/diagnostics/diagnose.js";
import { diagnosticsJson, rankCell, renderDiagnostics, renderMisses, renderMissSummary, renderPoolRecall } from "../../../src/retrieval/diagnostics/render.js";
import { displayWidth, renderTable, shorten } from "../../../src/retrieval/diagnostics/table.js";
import { at, fill, HYBRID, out, place, q, unanswerable, variant } from "./build.js";

const QUESTIONS = [
  // "casual" and "leave" sit in hr#0, the chunk before q-hr's anchor chunk hr#1: a chunk-boundary by the text.
  q("q-hr", "hr", "unused days cannot be carried forward to the next year", "conceptual", { question: "Does casual leave carry over?" }),
  q("q-fin", "fin", "receipts must be attached to every single claim", "factual", { question: "Do I need a receipt for a taxi?" }),
  q("q-it", "it", "hardware tokens expire after ninety days", "lexical"),
  q("q-sec", "sec", "badges must be worn visibly at all times inside the building", "lexical"),
  unanswerable("q-no"),
];

const LISTS = {
  "q-hr": { bm25: place({ "hr#0": 1 }), vector: fill(60), fused: place({ "hr#0": 2 }), reranked: place({ "hr#0": 2 }) },
  "q-fin": { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) },
  "q-it": { bm25: at("it#1", 3), vector: fill(60), fused: at("it#1", 5), reranked: at("it#1", 14) },
  "q-sec": { bm25: place({ "sec#0": 1 }), vector: fill(60), fused: place({ "sec#0": 1 }), reranked: place({ "sec#0": 1 }) },
  "q-no": { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) },
};

function hybrid(): VariantDiagnostics {
  const outputs = Object.entries(LISTS).map(([id, l]) => out(id, l.reranked, l));
  return diagnoseVariant(QUESTIONS, variant(outputs, HYBRID, "hybrid-rerank"), { k: 10, poolDepth: 50, precisionKs: [1, 5, 10] });
}

/** bm25-small: one first-stage list, which is also `retrieved`; q-it's chunk sits at 15 there. */
function small(): VariantDiagnostics {
  const outputs = Object.entries(LISTS).map(([id, l]) => {
    const bm25 = id === "q-it" ? at("it#1", 15) : l.bm25;
    return out(id, bm25, { bm25 });
  });
  return diagnoseVariant(QUESTIONS, variant(outputs, { first: ["bm25"] }, "bm25-small"), { k: 10, poolDepth: 50, precisionKs: [1, 5, 10] });
}

describe("table helpers", () => {
  it("display width: combining signs take no column, CJK two", () => {
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth("हिन्दी")).toBe(5);
    expect(displayWidth("Cafe\u0301")).toBe(4);
    expect(displayWidth("日本")).toBe(4);
  });
  it("shorten cuts at a word and marks the cut", () => {
    expect(shorten("unused casual leave cannot be carried forward to the next year", 30)).toBe("unused casual leave cannot be…");
    expect(shorten("short  anchor\ntext", 30)).toBe("short anchor text");
    const s = shorten("छुट्टी के नियम और प्रक्रिया का पूरा विवरण यहाँ दिया गया है", 20);
    expect(displayWidth(s)).toBeLessThanOrEqual(20);
    expect(s.endsWith("…")).toBe(true);
  });
  it("terminal tables align right and left columns", () => {
    expect(renderTable([{ header: "kind" }, { header: "n", align: "right" }], [["lexical", "16"], ["हिन्दी", "4"]], "terminal")).toBe(
      ["kind      n", "-------  --", "lexical  16", "हिन्दी     4"].join("\n"),
    );
  });
  it("markdown tables escape pipes and line breaks", () => {
    expect(renderTable([{ header: "a" }, { header: "b", align: "right" }], [["x|y", "1\n2"]], "markdown")).toBe("| a | b |\n|:---|---:|\n| x\\|y | 1 2 |");
  });
  it("rank cells", () => {
    expect(rankCell({ name: "b", role: "first", status: "ranked", rank: 7, chunk: "c" }, 50)).toBe("7");
    expect(rankCell({ name: "b", role: "first", status: "beyond-depth", rank: 73, chunk: "c" }, 50)).toBe(">50");
    expect(rankCell({ name: "b", role: "first", status: "absent" }, 50)).toBe("—");
  });
});

describe("the --misses table", () => {
  it("terminal: a column per declared stage and retrieved, then why lines", () => {
    const text = renderMisses(hybrid(), "terminal");
    const lines = text.split("\n");
    expect(lines[0]).toBe("Misses: hybrid-rerank (no relevant chunk in the top 10; ranks within depth 50)");
    const header = lines.find((l) => l.startsWith("question"))!;
    expect(header.split(/\s{2,}/)).toEqual(["question", "kind", "anchor", "bm25", "vector", "fused", "reranked", "retrieved", "failure", "fix"]);
    const row = (id: string) => lines.find((l) => l.startsWith(id + " "))!.split(/\s{2,}/);
    expect(row("q-it")).toEqual(["q-it", "lexical", "hardware tokens expire after ninety days", "3", "—", "5", "14", "14", "reranker-demotion", "hybrid-weights"]);
    expect(row("q-hr")).toEqual(["q-hr", "conceptual", "unused days cannot be carried forward…", "—", "—", "—", "—", "—", "chunk-boundary", "contextual-chunk-headers"]);
    expect(row("q-fin").slice(-2)).toEqual(["vocabulary-gap", "better-embedder"]);
    expect(lines).toContain("  q-fin: absent from bm25 and vector within depth 50; no other chunk of fin ranks in the top 10; the anchor's chunk fin#1 holds \"receipt\" of the question's words; no chunk beside it holds the others");
    expect(lines).toContain("  q-hr: the question's words \"casual\" (text of hr#0, previous chunk) and \"leave\" (text of hr#0, previous chunk) sit beside the anchor's chunk hr#1, which holds only \"carry\"; it is in no list's top 10 (absent from every list); hr#0 ranks 1 in bm25");
    expect(text).not.toMatch(/q-sec|q-no/);
  });

  it("markdown: a why column", () => {
    const md = renderMisses(hybrid(), "markdown");
    expect(md).toContain("| question | kind | anchor | bm25 | vector | fused | reranked | retrieved | failure | fix | why |");
    expect(md).toContain("| q-it | lexical | hardware tokens expire after ninety days | 3 | — | 5 | 14 | 14 | reranker-demotion | hybrid-weights | fused had it#1 at rank 5 (top 10); reranked ranks it at 14 |");
  });

  it("bm25-small: only bm25 and retrieved columns; undecided rows say why", () => {
    const text = renderMisses(small(), "terminal");
    const header = text.split("\n").find((l) => l.startsWith("question"))!;
    expect(header.split(/\s{2,}/)).toEqual(["question", "kind", "anchor", "bm25", "retrieved", "failure", "fix"]);
    expect(text).toMatch(/q-it +lexical .* 15 +15 +undecided +hybrid-weights/);
    expect(text).toContain("  q-it: bm25 has it at rank 15 (within depth 50), so not a vocabulary gap; ranking and reranker-demotion need a fused list (stages.fused), which this variant does not declare (proposal: try hybrid-weights (ranking and reranker-demotion both call for it); declare stages.fused to tell them apart)");
  });
});

describe("the failure-kind summary", () => {
  it("marks kinds this variant cannot decide as n/a and says why", () => {
    const d = small();
    const text = renderMissSummary(d.summary, d.variant, "terminal");
    expect(text).toMatch(/^ranking +hybrid-weights +n\/a +n\/a +n\/a +n\/a$/m);
    expect(text).toMatch(/^reranker-demotion +hybrid-weights +n\/a/m);
    expect(text).toMatch(/^vocabulary-gap +better-embedder +1 \(33%\) +0 +1 \(100%\) +0$/m);
    expect(text).toMatch(/^misses +3 of 4 +1 of 1 +1 of 1 +1 of 2$/m);
    expect(text).toContain("note: not decidable here: anchor-ambiguity (needs verdicts of the optional anchor-ambiguity rubric); reranker-demotion (needs a fused list, stages.fused); ranking (needs a fused list, stages.fused).");
    expect(text).toMatch(/^note: recommendation: /m);
  });

  it("shows the split by kind next to the overall column", () => {
    const d = hybrid();
    const header = renderMissSummary(d.summary, d.variant, "terminal").split("\n").find((l) => l.startsWith("failure"))!;
    expect(header.split(/\s{2,}/)).toEqual(["failure", "fix", "overall", "conceptual", "factual", "lexical"]);
  });
});

describe("pool recall rendering", () => {
  it("overall row then kinds", () => {
    const d = hybrid();
    const text = renderPoolRecall(d.pool, d.variant, "terminal");
    expect(text.split("\n")[0]).toBe("Pool recall: hybrid-rerank (fused@50 beside final R@10)");
    // pool: q-hr 0, q-fin 0, q-it 1, q-sec 1/2 (R = 2: sec#0 and sec#1 both hold the anchor) -> 0.375
    // final: q-sec 1/2 only -> 0.125; not in pool: q-hr, q-fin; in pool, not top 10: q-it
    expect(text).toMatch(/^overall +4 +0\.3750 +0\.1250 +2 +1$/m);
    expect(text).toMatch(/^lexical +2 +0\.7500 +0\.2500 +0 +1$/m);
    expect(text).toContain("note: 1 unanswerable question left out.");
  });

  it("says unavailable for a variant without stages, with no number", () => {
    const outputs = Object.entries(LISTS).map(([id, l]) => out(id, l.reranked));
    const d = diagnoseVariant(QUESTIONS, variant(outputs, {}, "plain"), { k: 10, poolDepth: 50, precisionKs: [10] });
    const text = renderPoolRecall(d.pool, d.variant, "terminal");
    expect(text).toContain("pool recall unavailable: no declared pool");
    expect(text).not.toMatch(/\d\.\d{4}/);
  });
});

describe("renderDiagnostics and JSON", () => {
  it("includes the misses table only when asked", () => {
    const d = hybrid();
    expect(renderDiagnostics(d, "terminal", { misses: false })).not.toContain("Misses:");
    const all = renderDiagnostics(d, "terminal");
    for (const s of ["Pool recall:", "Failure kinds:", "Misses:"]) expect(all).toContain(s);
    // the precision ceiling is one note under pool recall, not a table repeating P@k
    expect(all).toMatch(/^note: P@5 and P@10 are capped: at most 0\.\d{3} and 0\.125 here/m);
    expect(all).not.toContain("max P@");
  });

  it("markdown uses headings, and notes as list items so each stays its own line", () => {
    const md = renderDiagnostics(hybrid(), "markdown");
    expect(md).toMatch(/^### Pool recall: hybrid-rerank/m);
    expect(md).toMatch(/^- recommendation: /m);
    expect(md).toMatch(/^- not decidable here: /m);
  });

  it("the JSON structure round-trips", () => {
    const d = hybrid();
    const back = JSON.parse(diagnosticsJson(d)) as VariantDiagnostics;
    expect(back).toEqual(d);
    expect(back.misses.map((m) => [m.question, m.failure, m.fix])).toEqual([
      ["q-hr", "chunk-boundary", "contextual-chunk-headers"],
      ["q-fin", "vocabulary-gap", "better-embedder"],
      ["q-it", "reranker-demotion", "hybrid-weights"],
    ]);
  });
});
