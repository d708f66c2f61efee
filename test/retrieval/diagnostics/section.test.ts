import { describe, expect, it } from "vitest";
import { diagnoseVariants, renderDiagnosticsSection } from "../../../src/retrieval/diagnostics/section.js";
import { at, fill, HYBRID, out, q, variant } from "./build.js";

describe("diagnoseVariants", () => {
  const QHR = q("q-hr", "hr", "unused days cannot be carried forward to the next year", "conceptual");
  const lists = { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) };
  const a = variant([out("q-hr", fill(60), lists)], HYBRID, "a");
  const b = variant([out("q-hr", at("hr#1", 7), { bm25: at("hr#1", 7) })], { first: ["bm25"] }, "b");

  it("reads misses at the largest cutoff and routes verdicts by variant", () => {
    const ds = diagnoseVariants({ questions: [QHR] }, [a, b], { ks: [1, 5], poolDepth: 50, ambiguity: new Map([["a", new Map([["q-hr", "yes" as const]])]]) });
    expect(ds.map((d) => [d.variant, d.k])).toEqual([["a", 5], ["b", 5]]);
    expect(ds[0]!.misses.map((m) => m.failure)).toEqual(["anchor-ambiguity"]);
    // b: hr#1 at 7 is a miss at k = 5, found by bm25 within depth: undecided without a fused list.
    expect(ds[1]!.misses.map((m) => m.failure)).toEqual(["undecided"]);
    expect(ds[1]!.summary.decidability.undecidable.map((u) => u.failure)).toContain("anchor-ambiguity");
  });

  it("renders one block per variant, ending with a newline", () => {
    const ds = diagnoseVariants({ questions: [QHR] }, [a, b], { ks: [10], poolDepth: 50 });
    const text = renderDiagnosticsSection(ds, "terminal", false);
    expect(text.endsWith("\n")).toBe(true);
    expect(text.match(/^Pool recall: /gm)).toHaveLength(2);
    expect(text).not.toContain("Misses:");
    expect(renderDiagnosticsSection(ds, "terminal", true).match(/^Misses: /gm)).toHaveLength(2);
  });
});
