/**
 * The baseline backend carries the support model's pYes onto the verdicts a
 * run writes (src/judge/judges/baseline.ts, schedule/run.ts, Judgment in golden/schema/items.ts).
 */
import { describe, expect, it } from "vitest";
import { Judgment } from "../../../src/golden/schema/items.js";
import { baselineBackend } from "../../../src/judge/judges/baseline.js";
import { runJudge } from "../../../src/judge/schedule/run.js";
import { fixtureInputs } from "../helpers.js";

describe("pYes on baseline verdicts", () => {
  it("faithfulness and citation-accuracy verdicts carry the model's pYes, consistent with the verdict; other rubrics none", async () => {
    const { itemSet } = fixtureInputs(["citation-accuracy", "faithfulness", "not-found"]);
    const { judgments } = await runJudge({ items: itemSet.items, backend: baselineBackend(), repeats: 1, concurrency: 2 });
    const judged = judgments.filter((j) => j.judge === "baseline");
    const scored = judged.filter((j) => j.pYes !== undefined);
    expect(scored.length).toBeGreaterThan(0);
    for (const j of scored) {
      expect(["faithfulness", "citation-accuracy"]).toContain(j.rubric);
      expect(j.verdict).toBe(j.pYes! >= 0.5 ? "yes" : "no");
      expect(Judgment.parse(JSON.parse(JSON.stringify(j))).pYes).toBe(j.pYes);
    }
    expect(judged.filter((j) => j.rubric === "not-found").every((j) => j.pYes === undefined)).toBe(true);
  });

  it("the Judgment schema accepts pYes within 0..1 only", () => {
    const base = { variant: "v", question: "q", rubric: "faithfulness", unit: "answer", inputHash: "a".repeat(64), fingerprint: "f", judge: "baseline", verdict: "yes", reason: "r", time: "2026-01-01T00:00:00.000Z" };
    expect(Judgment.safeParse({ ...base, pYes: 0.7 }).success).toBe(true);
    expect(Judgment.safeParse(base).success).toBe(true);
    for (const pYes of [-0.1, 1.5, "0.7"]) expect(Judgment.safeParse({ ...base, pYes }).success).toBe(false);
  });
});
