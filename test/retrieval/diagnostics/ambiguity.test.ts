import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/golden/errors.js";
import type { Judgment, Verdict } from "../../../src/golden/schema/items.js";
import { ambiguityVerdicts } from "../../../src/retrieval/diagnostics/ambiguity.js";

function j(question: string, verdict: Verdict, extra: Partial<Judgment> = {}): Judgment {
  return {
    variant: "hybrid",
    question,
    rubric: "anchor-ambiguity",
    unit: "question",
    inputHash: "0".repeat(64),
    fingerprint: "fp1",
    judge: "llm",
    repeat: 0,
    verdict,
    reason: "",
    cached: false,
    time: "2026-11-30T10:00:00Z",
    ...extra,
  };
}

describe("ambiguityVerdicts", () => {
  it("keeps this variant's anchor-ambiguity question verdicts only", () => {
    const m = ambiguityVerdicts(
      [j("q1", "yes"), j("q2", "no"), j("q3", "yes", { variant: "other" }), j("q4", "yes", { rubric: "faithfulness", unit: "answer" }), j("q5", "no", { judge: "rule" })],
      "hybrid",
      "judgments.jsonl",
    );
    expect([...m]).toEqual([["q1", "yes"], ["q2", "no"]]);
  });

  it("repeats: agreeing verdicts stand, errors are skipped, disagreement or only errors give error", () => {
    const m = ambiguityVerdicts(
      [j("a", "yes"), j("a", "yes", { repeat: 1 }), j("b", "error"), j("b", "no", { repeat: 1 }), j("c", "yes"), j("c", "no", { repeat: 1 }), j("d", "error")],
      "hybrid",
      "judgments.jsonl",
    );
    expect(Object.fromEntries(m)).toEqual({ a: "yes", b: "no", c: "error", d: "error" });
  });

  it("refuses to mix judge fingerprints", () => {
    expect(() => ambiguityVerdicts([j("a", "yes"), j("b", "no", { fingerprint: "fp2" })], "hybrid", "judgments.jsonl")).toThrow(InputError);
    expect(() => ambiguityVerdicts([j("a", "yes"), j("b", "no", { fingerprint: "fp2" })], "hybrid", "judgments.jsonl")).toThrow(/^judgments\.jsonl: fingerprint: .*2 judge fingerprints/);
  });
});
