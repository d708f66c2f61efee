import { describe, expect, it } from "vitest";
import { claimsSection } from "../../src/report/claims.js";
import type { UnsupportedClaimJson } from "../../src/report/claims-schema.js";

const claim = (variant: string, question: string, verdict: "no" | "error"): UnsupportedClaimJson => ({
  variant, question, unit: "c1", claim: "Claim: taxis are free.", verdict, reason: "not in the sources", judge: "llm", inputHash: "0".repeat(64),
  context: [{ position: 1, id: `${question}#0`, heading: null, text: "Taxis can be claimed." }],
});

describe("claimsSection", () => {
  it("counts each variant's unsupported claims, and says none rather than '0 unsupported claims in 0 answers'", () => {
    const variants = [{ name: "bm25" }, { name: "hybrid" }, { name: "dense" }] as never;
    const text = claimsSection({ variants, unsupportedClaims: [claim("bm25", "q1", "no"), claim("bm25", "q2", "no"), claim("hybrid", "q1", "error")] }, "terminal");
    expect(text).toContain("bm25: 2 unsupported claims in 2 answers\n");
    expect(text).toContain("hybrid: no unsupported claim, 1 not judged (error)\n");
    expect(text).toContain("dense: no unsupported claim\n");
    expect(text).not.toContain("0 unsupported claims");
  });
});
