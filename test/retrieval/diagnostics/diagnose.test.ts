import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportError } from "../../../src/cli/errors.js";
import { loadGolden, loadVariant } from "../../../src/golden/dataset.js";
import { InputErrors } from "../../../src/golden/errors.js";
import { VariantConfig } from "../../../src/golden/schema/config.js";
import { diagnoseVariant, missK } from "../../../src/retrieval/diagnostics/diagnose.js";
import { renderDiagnostics } from "../../../src/retrieval/diagnostics/render.js";
import { scoreRetrieval } from "../../../src/retrieval/score.js";
import { tempDir } from "../../helpers/temp.js";
import { at, CHUNKS, fill, HYBRID, out, place, q, unanswerable, variant } from "./build.js";

const dir = tempDir("ragjudge-diag-");

function jsonl(name: string, rows: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return file;
}

const QUESTIONS = [
  q("q-hr", "hr", "unused days cannot be carried forward to the next year", "conceptual", { split: "dev", question: "Does casual leave carry over?" }),
  q("q-fin", "fin", "receipts must be attached to every single claim", "factual"),
  q("q-it", "it", "hardware tokens expire after ninety days", "lexical"),
  q("q-sec", "sec", "badges must be worn visibly at all times inside the building", "lexical"),
  unanswerable("q-no"),
];

describe("missK", () => {
  it("is the largest configured k, 10 by default", () => {
    expect(missK([1, 5, 10])).toBe(10);
    expect(missK([20, 3])).toBe(20);
    expect(missK([])).toBe(10);
  });
});

describe("diagnoseVariant on files loaded like the CLI loads them (bm25-small shape)", () => {
  const golden = loadGolden(jsonl("golden.jsonl", QUESTIONS));
  jsonl("small.chunks.jsonl", CHUNKS);
  // The pipeline writes retrieved and stages.bm25 as {id, score} objects and bare ids.
  const bm25 = {
    "q-hr": place({ "hr#0": 1 }),
    "q-fin": fill(60),
    "q-it": at("it#1", 15),
    "q-sec": place({ "sec#0": 1, "sec#1": 2 }),
    "q-no": fill(60),
  };
  jsonl(
    "small.output.jsonl",
    Object.entries(bm25).map(([id, list]) => ({
      id,
      retrieved: list.map((c, i) => ({ id: c, score: 100 - i })),
      stages: { bm25: list },
    })),
  );
  const cfg = VariantConfig.parse({ name: "bm25-small", output: "small.output.jsonl", chunks: "small.chunks.jsonl", stages: { first: ["bm25"] } });
  const v = loadVariant(cfg, golden, (p) => join(dir, p));
  const d = diagnoseVariant(golden.questions, v, { k: missK([1, 5, 10]), poolDepth: 50, precisionKs: [1, 5, 10] });

  it("pool recall of the only first-stage list, unanswerable left out", () => {
    expect(d.pool.pool).toEqual({ available: true, list: "bm25", source: "only-first" });
    expect(d.pool.unanswerable).toBe(1);
    // q-hr 0, q-fin 0, q-it 1 (rank 15 within 50), q-sec 1 -> 0.5; final: q-sec only -> 0.25
    expect(d.pool.overall?.poolRecall).toBe(0.5);
    expect(d.pool.overall?.finalRecall).toBe(0.25);
  });

  it("misses: boundary, gap and an undecided row, never ranking or demotion", () => {
    expect(d.misses.map((m) => [m.question, m.failure])).toEqual([
      ["q-hr", "chunk-boundary"],
      ["q-fin", "vocabulary-gap"],
      ["q-it", "undecided"],
    ]);
    expect(d.summary.decidability.decidable).toEqual(["chunk-boundary", "vocabulary-gap"]);
    expect(d.summary.recommendation).toBe(
      "chunk-boundary and vocabulary-gap tie (1 of 3 misses each): chunk-boundary: try contextual-chunk-headers (or smaller-chunks); vocabulary-gap: try better-embedder (or query-rewrite, contextual-chunk-headers). 1 of 3 misses is undecided (see each row's reason).",
    );
  });

  it("precision ceiling by kind", () => {
    expect(d.precision.overall?.cells.find((c) => c.k === 10)?.maxPrecision).toBeCloseTo((0.1 + 0.1 + 0.1 + 0.2) / 4, 12);
    expect(d.precision.byKind.map((r) => r.kind)).toEqual(["conceptual", "factual", "lexical"]);
  });

  it("renders without error in both formats", () => {
    expect(renderDiagnostics(d, "terminal")).toContain("Misses: bm25-small");
    expect(renderDiagnostics(d, "markdown")).toContain("### Misses: bm25-small");
  });
});

describe("declared stage lists must be present on every line", () => {
  it("a missing declared list is bad input naming file, line and field", () => {
    const v = variant(
      [
        out("q-hr", fill(60), { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) }),
        out("q-fin", fill(60), { bm25: fill(60), vector: fill(60), reranked: fill(60) }),
      ],
      HYBRID,
      "hybrid-rerank",
    );
    let err: unknown;
    try {
      diagnoseVariant(QUESTIONS, v, { k: 10, poolDepth: 50, precisionKs: [10] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputErrors);
    const lines: string[] = [];
    expect(reportError(err, (s) => lines.push(s))).toBe(2);
    expect(lines).toEqual([
      "ragjudge: error: hybrid-rerank.output.jsonl:2: stages.fused: missing: variant \"hybrid-rerank\" declares \"fused\" as its fused list (the config's stages)\n",
    ]);
  });
});

describe("anchor-ambiguity verdicts through diagnoseVariant", () => {
  const lists = { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) };
  const v = variant([out("q-hr", fill(60), lists), out("q-fin", fill(60), lists)], HYBRID);
  it("without verdicts the kind is n/a; with them it is decided per question", () => {
    const without = diagnoseVariant(QUESTIONS.slice(0, 2), v, { k: 10, poolDepth: 50, precisionKs: [10] });
    expect(without.summary.decidability.undecidable.map((u) => u.failure)).toEqual(["anchor-ambiguity"]);
    // q-hr's words sit in the chunk before its anchor's: chunk-boundary by the text, whatever the ranks
    expect(without.misses.map((m) => m.failure)).toEqual(["chunk-boundary", "vocabulary-gap"]);
    const withV = diagnoseVariant(QUESTIONS.slice(0, 2), v, { k: 10, poolDepth: 50, precisionKs: [10], ambiguity: new Map([["q-hr", "yes"], ["q-fin", "no"]]) });
    expect(withV.summary.decidability.undecidable).toEqual([]);
    expect(withV.misses.map((m) => m.failure)).toEqual(["anchor-ambiguity", "vocabulary-gap"]);
  });
});

describe("agrees with the retrieval score table", () => {
  it("final R@k and P@k here equal scoreRetrieval's, overall and by kind (missing output and no-relevant questions included)", () => {
    const qs = [...QUESTIONS, q("q-bad", "hr", "a phrase that is in no chunk of it", "factual"), q("q-gone", "fin", "travel claims are paid within thirty days of approval", "factual")];
    const v = variant(
      [
        out("q-hr", place({ "hr#1": 3 }), { bm25: place({ "hr#1": 3 }) }),
        out("q-fin", fill(60), { bm25: fill(60) }),
        out("q-it", at("it#1", 7), { bm25: at("it#1", 7) }),
        out("q-sec", place({ "sec#0": 1, "sec#1": 12 }), { bm25: place({ "sec#0": 1, "sec#1": 12 }) }),
        out("q-no", fill(60), { bm25: fill(60) }),
        out("q-bad", fill(60), { bm25: fill(60) }),
      ],
      { first: ["bm25"] },
    );
    const golden = { file: "golden.jsonl", questions: qs, byId: new Map(qs.map((x) => [x.id, x])), lineOf: new Map<string, number>() };
    const score = scoreRetrieval(golden, v, { measures: ["R@5", "P@5", "P@10"] });
    const d = diagnoseVariant(qs, v, { k: 5, poolDepth: 50, precisionKs: [5, 10] });
    const at_ = (values: Float64Array, label: string) => values[score.measures.findIndex((m) => m.label === label)]!;
    expect(d.pool.overall!.finalRecall).toBeCloseTo(at_(score.overall.values, "R@5"), 12);
    expect(d.precision.overall!.cells.map((c) => c.precision)).toEqual([at_(score.overall.values, "P@5"), at_(score.overall.values, "P@10")].map((x) => expect.closeTo(x, 12)));
    const kinds = score.groups.filter((g) => g.by === "kind");
    expect(d.pool.byKind.map((r) => [r.kind, r.questions])).toEqual(kinds.map((g) => [g.key, g.n]));
    for (const g of kinds) {
      expect(d.pool.byKind.find((r) => r.kind === g.key)!.finalRecall, g.key).toBeCloseTo(at_(g.values, "R@5"), 12);
      expect(d.precision.byKind.find((r) => r.kind === g.key)!.cells[0]!.precision, g.key).toBeCloseTo(at_(g.values, "P@5"), 12);
    }
  });
});
