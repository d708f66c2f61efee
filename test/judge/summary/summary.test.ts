import { describe, expect, it } from "vitest";
import type { GoldenSet } from "../../../src/golden/dataset.js";
import { GoldenQuestion } from "../../../src/golden/schema/golden.js";
import type { Judgment } from "../../../src/golden/schema/items.js";
import { summarise } from "../../../src/judge/summary/summary.js";
import { formatSummary } from "../../../src/judge/summary/format.js";
import { rubric } from "../helpers.js";

const qs = [
  { id: "a1", question: "?", relevant: ["c"], kind: "factual", tags: ["hr"] },
  { id: "a2", question: "?", relevant: ["c"], kind: "numeric", tags: ["hr", "travel"] },
  { id: "a3", question: "?", relevant: ["c"], kind: "numeric", tags: [] },
  { id: "u1", question: "?", answerable: false, kind: "no-answer" },
  { id: "u2", question: "?", answerable: false, kind: "no-answer" },
].map((q) => GoldenQuestion.parse(q));
const golden: GoldenSet = { file: "g.jsonl", questions: qs, byId: new Map(qs.map((q) => [q.id, q])), lineOf: new Map() };

const H = "0".repeat(64);
let n = 0;
function j(rubric: string, question: string, verdict: "yes" | "no" | "error", extra: Partial<Judgment> = {}): Judgment {
  n++;
  return { variant: "v", question, rubric, unit: "answer", inputHash: H, fingerprint: "fpA", judge: "llm", model: "m", repeat: 0, verdict, reason: `r${n}`, cached: false, time: "2026-01-01T00:00:00.000Z", ...extra };
}

describe("summarise", () => {
  it("computes pass rates by variant, kind and tag, keeping errors out of the rate", () => {
    const s = summarise({
      judgments: [j("faithfulness", "a1", "yes"), j("faithfulness", "a2", "no"), j("faithfulness", "a3", "error", { error: "http-500: x (gave up after 5 attempts)" }), j("faithfulness", "a1", "no", { variant: "w" })],
      golden, rubrics: [rubric("faithfulness")], requireCitations: false,
    });
    const [f] = s.figures;
    expect(f!.variants.map((v) => v.variant)).toEqual(["v", "w"]);
    const v = f!.variants[0]!;
    expect(v.overall).toEqual({ pass: 1, fail: 1, errors: 1, rate: 0.5 });
    expect(v.byKind).toEqual({ factual: { pass: 1, fail: 0, errors: 0, rate: 1 }, numeric: { pass: 0, fail: 1, errors: 1, rate: 0 } });
    expect(v.byTag.hr).toEqual({ pass: 1, fail: 1, errors: 0, rate: 0.5 });
    expect(v.byTag.travel!.rate).toBe(0);
    expect(f!.errorCauses).toEqual([["http-500: x", 1]]);
    expect(s.totals).toMatchObject({ judgments: 4, errors: 1 });
  });

  it("never mixes fingerprints in one figure", () => {
    const s = summarise({
      judgments: [j("faithfulness", "a1", "yes"), j("faithfulness", "a2", "yes"), j("faithfulness", "a3", "no", { fingerprint: "fpB" })],
      golden, rubrics: [rubric("faithfulness")], requireCitations: false,
    });
    expect(s.figures.map((f) => [f.fingerprint, f.variants[0]!.overall.pass, f.variants[0]!.overall.fail])).toEqual([["fpA", 2, 0], ["fpB", 0, 1]]);
  });

  it("reports not-found as correct 'not found' on unanswerable and false refusals on answerable", () => {
    const s = summarise({
      judgments: [j("not-found", "a1", "yes"), j("not-found", "a2", "no"), j("not-found", "a3", "yes"), j("not-found", "u1", "yes"), j("not-found", "u2", "no")],
      golden, rubrics: [rubric("not-found")], requireCitations: false,
    });
    const nf = s.figures[0]!.variants[0]!.notFound!;
    expect(nf.correctNotFound).toEqual({ pass: 1, fail: 1, errors: 0, rate: 0.5 });
    expect(nf.falseRefusals).toEqual({ refused: 1, scored: 3, errors: 0, rate: 1 / 3 });
  });

  it("folds citation pairs into answers: all supported to pass, share of supported pairs, rule pairs fail", () => {
    const c = (q: string, unit: string, verdict: "yes" | "no" | "error", extra: Partial<Judgment> = {}) => j("citation-accuracy", q, verdict, { unit, ...extra });
    const rule = { judge: "rule" as const, fingerprint: "rule:1" };
    const judgments = [
      c("a1", "s1:x", "yes"), c("a1", "s2:y", "yes"),
      c("a2", "s1:x", "yes"), c("a2", "s2:z", "no", { ...rule, rule: "outside-context" }),
      c("a3", "s1:x", "yes"), c("a3", "s1:y", "error"),
      c("u1", "answer", "yes", { ...rule, rule: "uncited" }),
    ];
    const lax = summarise({ judgments, golden, rubrics: [rubric("citation-accuracy")], requireCitations: false }).figures[0]!;
    expect(lax.fingerprint).toBe("fpA");
    const v = lax.variants[0]!;
    expect(v.overall).toEqual({ pass: 1, fail: 1, errors: 1, rate: 0.5 });
    expect(v.citations).toEqual({ pairs: 6, supported: 4, unsupported: 1, errors: 1, outsideContext: 1, unknownChunk: 0, uncited: 1, meanShare: (1 + 0.5 + 1) / 3 });
    const strict = summarise({ judgments, golden, rubrics: [rubric("citation-accuracy")], requireCitations: true }).figures[0]!.variants[0]!;
    expect(strict.overall).toEqual({ pass: 1, fail: 2, errors: 1, rate: 1 / 3 });
  });

  it("scores citation accuracy decided by rule alone (no answer cites a passage: imported answers), instead of failing", () => {
    const rule = { judge: "rule" as const, fingerprint: "rule:1", rule: "uncited" };
    const judgments = ["a1", "a2", "u1"].map((q) => j("citation-accuracy", q, "yes", { unit: "answer", ...rule }));
    const figures = summarise({ judgments, golden, rubrics: [rubric("citation-accuracy")], requireCitations: false }).figures;
    expect(figures).toHaveLength(1);
    expect(figures[0]!.variants[0]!.citations).toMatchObject({ pairs: 0, uncited: 3 });
    const strict = summarise({ judgments, golden, rubrics: [rubric("citation-accuracy")], requireCitations: true }).figures[0]!.variants[0]!;
    expect(strict.overall).toMatchObject({ pass: 0, fail: 3 });
  });

  it("counts rule verdicts and skipped items once per rubric, in its main figure, when two fingerprints share it", () => {
    const judgments = [
      j("faithfulness", "a1", "yes"), j("faithfulness", "a2", "yes"),
      j("faithfulness", "a3", "no", { fingerprint: "fpB" }),
      j("faithfulness", "a1", "no", { variant: "w", judge: "rule", fingerprint: "rule:1", rule: "no-answer" }),
    ];
    const skipped = [{ key: { variant: "w", question: "a2", rubric: "faithfulness", unit: "answer" }, reason: "no reference" }];
    const s = summarise({ judgments, golden, rubrics: [rubric("faithfulness")], requireCitations: false, skipped });
    const [a, b] = s.figures;
    expect([a!.fingerprint, b!.fingerprint]).toEqual(["fpA", "fpB"]);
    expect(a!.variants.map((v) => [v.variant, v.overall.pass, v.overall.fail, v.rules, v.skipped])).toEqual([["v", 2, 0, {}, 0], ["w", 0, 1, { "no-answer": 1 }, 1]]);
    expect(b!.variants.map((v) => [v.variant, v.overall.pass, v.overall.fail, v.rules, v.skipped])).toEqual([["v", 0, 1, {}, 0]]);
    const total = (f: typeof a) => f!.variants.reduce((n, v) => n + v.overall.pass + v.overall.fail, 0);
    expect(total(a) + total(b)).toBe(4);
  });

  it("scores each citation answer in the figure of its own fingerprint, once, and an answer split across two in neither", () => {
    const c = (q: string, unit: string, verdict: "yes" | "no" | "error", extra: Partial<Judgment> = {}) => j("citation-accuracy", q, verdict, { unit, ...extra });
    const rule = { judge: "rule" as const, fingerprint: "rule:1" };
    const judgments = [
      c("a1", "s1:x", "yes"), c("a1", "s2:y", "yes"), c("a1", "s3:z", "no", { ...rule, rule: "outside-context" }),
      c("a2", "s1:x", "yes", { fingerprint: "fpB" }), c("a2", "s2:y", "yes", { fingerprint: "fpB" }),
      // a3's pairs straddle a response-mode switch: mixing them would mix fingerprints.
      c("a3", "s1:x", "yes"), c("a3", "s2:y", "no", { fingerprint: "fpB" }),
      c("u1", "answer", "yes", { ...rule, rule: "uncited" }),
    ];
    const [a, b] = summarise({ judgments, golden, rubrics: [rubric("citation-accuracy")], requireCitations: true }).figures;
    const va = a!.variants[0]!;
    const vb = b!.variants[0]!;
    expect([a!.fingerprint, b!.fingerprint]).toEqual(["fpA", "fpB"]);
    expect(va.overall).toEqual({ pass: 0, fail: 2, errors: 0, rate: 0 });
    expect(va.citations).toEqual({ pairs: 3, supported: 2, unsupported: 1, errors: 0, outsideContext: 1, unknownChunk: 0, uncited: 1, meanShare: 2 / 3, splitAnswers: 1 });
    expect(vb.overall).toEqual({ pass: 1, fail: 0, errors: 0, rate: 1 });
    expect(vb.citations).toEqual({ pairs: 2, supported: 2, unsupported: 0, errors: 0, outsideContext: 0, unknownChunk: 0, uncited: 0, meanShare: 1 });
    expect(formatSummary(summarise({ judgments, golden, rubrics: [rubric("citation-accuracy")], requireCitations: true }))).toMatch(/answers judged under two fingerprints \(not scored: rerun\)\s+1/);
  });

  it("uses repeat 0 for figures and all repeats for self-disagreement", () => {
    const judgments = [
      j("faithfulness", "a1", "yes"), j("faithfulness", "a1", "no", { repeat: 1 }),
      j("faithfulness", "a2", "no"), j("faithfulness", "a2", "no", { repeat: 1 }),
      j("faithfulness", "a3", "yes"), j("faithfulness", "a3", "error", { repeat: 1 }),
    ];
    const f = summarise({ judgments, golden, rubrics: [rubric("faithfulness")], requireCitations: false }).figures[0]!;
    expect(f.variants[0]!.overall).toEqual({ pass: 2, fail: 1, errors: 0, rate: 2 / 3 });
    expect(f.selfDisagreement).toEqual({ items: 2, disagreeing: 1, rate: 0.5 });
  });

  it("keeps verdicts of two served models under one fingerprint apart, and formats a readable summary", () => {
    const s = summarise({
      judgments: [j("not-found", "a1", "yes", { servedModel: "m-1" }), j("not-found", "u1", "no", { servedModel: "m-2" })],
      golden, rubrics: [rubric("not-found")], requireCitations: false, usage: new Map([["not-found", { calls: 2, prompt: 300, completion: 40 }]]),
    });
    // An alias that moved to a new snapshot mid-run: two figures, never one pooled rate.
    expect(s.figures.map((f) => [f.fingerprint, f.servedModel, f.variants[0]!.overall.pass + f.variants[0]!.overall.fail])).toEqual([["fpA", "m-1", 1], ["fpA", "m-2", 1]]);
    const text = formatSummary(s);
    expect(text).toContain("not-found  [LLM judge m; served m-1, fingerprint fpA]");
    expect(text).toContain("not-found  [LLM judge m; served m-2, fingerprint fpA]");
    expect(text).toContain("warning: this fingerprint's verdicts also came from m-2: counted apart, never pooled");
    expect(text).toMatch(/correct "not found" \(unanswerable\)\s+0\.0% 0\/1/);
    expect(text).toMatch(/not-found\s+2\s+300\s+40/);
  });
});
