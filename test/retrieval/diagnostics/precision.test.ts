import { describe, expect, it } from "vitest";
import { relevantSets } from "../../../src/golden/dataset.js";
import type { GoldenQuestion } from "../../../src/golden/schema/golden.js";
import type { PipelineOutput } from "../../../src/golden/schema/pipeline.js";
import { precisionCap } from "../../../src/retrieval/diagnostics/precision.js";
import { fill, out, place, q, unanswerable, variant } from "./build.js";

const QHR = q("q-hr", "hr", "unused days cannot be carried forward to the next year", "conceptual");
const QSEC = q("q-sec", "sec", "badges must be worn visibly at all times inside the building", "lexical");

function cap(questions: GoldenQuestion[], outputs: PipelineOutput[], ks: number[]) {
  const v = variant(outputs);
  const rel = relevantSets({ questions }, v.chunks);
  return precisionCap(questions, rel, v.outputs, ks);
}

describe("precisionCap", () => {
  // q-hr: R=1, hr#1 at rank 1. q-sec: R=2, sec#0 at 1 and sec#1 at 4.
  const r = cap(
    [QHR, QSEC, unanswerable("u1")],
    [out("q-hr", place({ "hr#1": 1 }, 10)), out("q-sec", place({ "sec#0": 1, "sec#1": 4 }, 10)), out("u1", fill(10))],
    [10, 1, 5],
  );

  it("max achievable mean P@k = mean(min(R, k)/k), beside the measured P@k", () => {
    expect(r.ks).toEqual([1, 5, 10]);
    const [p1, p5, p10] = r.overall!.cells;
    expect(p1).toEqual({ k: 1, precision: 1, maxPrecision: 1 });
    expect(p5!.maxPrecision).toBeCloseTo((1 / 5 + 2 / 5) / 2, 12); // 0.3
    expect(p5!.precision).toBeCloseTo((1 / 5 + 2 / 5) / 2, 12); // both at their ceiling
    expect(p10!.maxPrecision).toBeCloseTo((0.1 + 0.2) / 2, 12); // 0.15
    expect(r.overall!.questions).toBe(2);
    expect(r.overall!.fewRelevant).toBe(2);
  });

  it("one note naming each k whose ceiling is below 1, not P@1", () => {
    expect(r.notes).toEqual([
      "P@5 and P@10 are capped: at most 0.300 and 0.150 here (the mean of min(R, k)/k), measured 0.300 and 0.150; 2 of 2 questions have one or two relevant chunks, so read R@k and RR rather than P@k.",
    ]);
  });

  it("splits by kind", () => {
    expect(r.byKind.map((x) => [x.kind, x.cells.map((c) => c.maxPrecision)])).toEqual([
      ["conceptual", [1, 0.2, 0.1]],
      ["lexical", [1, 0.4, 0.2]],
    ]);
  });

  it("no note when every question can fill the top k", () => {
    const r1 = cap([QHR], [out("q-hr", fill(10))], [1]);
    expect(r1.notes).toEqual([]);
    expect(r1.overall!.cells[0]).toEqual({ k: 1, precision: 0, maxPrecision: 1 });
  });
});

describe("precisionCap with many relevant chunks", () => {
  it("the note names questions with fewer than k relevant chunks when none has one or two", () => {
    const many = { id: "q-many", question: "q?", answerable: true, relevant: ["misc#0", "misc#1", "misc#2"], kind: "factual", tags: [] };
    const r = cap([many], [out("q-many", fill(10))], [3, 5]);
    expect(r.overall!.fewRelevant).toBe(0);
    expect(r.overall!.cells.map((c) => [c.k, c.precision, c.maxPrecision])).toEqual([
      [3, 1, 1],
      [5, 0.6, 0.6],
    ]);
    expect(r.notes).toEqual(["P@5 is capped: at most 0.600 here (the mean of min(R, k)/k), measured 0.600; 1 of 1 questions have fewer than 5 relevant chunks."]);
  });
});
