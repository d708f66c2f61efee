import { describe, expect, it } from "vitest";
import { splitBudget } from "../../../src/calibration/plan/budget.js";
import type { GroupPlan } from "../../../src/calibration/plan/plan.js";

/** The fields of a plan the budget reads. */
function plan(rubric: string, over: { labels: number; heldoutItems: number; labelledHeldout?: number; further?: number | null; unitVariance?: number | null; unknown?: string; minLabels?: number }): GroupPlan {
  return {
    rubric, labels: over.labels, heldoutItems: over.heldoutItems, labelledHeldout: over.labelledHeldout ?? over.labels, minLabels: over.minLabels ?? 50,
    need: { kappa: 0.8, unitVariance: over.unitVariance ?? 0.5, total: null, further: over.further ?? null, bound: null, ...(over.unknown ? { unknown: over.unknown } : {}) },
  } as unknown as GroupPlan;
}

describe("splitBudget", () => {
  it("first gives rubrics that can pass what they need (fewest first), then labels where kappa's variance falls most", () => {
    const a = plan("a", { labels: 40, heldoutItems: 500, further: 30, unitVariance: 0.4 });
    const b = plan("b", { labels: 40, heldoutItems: 500, further: 90, unitVariance: 0.4 });
    const c = plan("c", { labels: 10, heldoutItems: 500, further: null, unitVariance: 2 });
    const s = splitBudget([a, b, c], 60);
    // a's 30 fit; b's 90 do not; the 30 left go to c, whose V/n falls most (V 2 on 10 labels).
    expect(s.get(a)).toEqual({ labels: 30, why: new Set(["to pass"]) });
    expect(s.get(b)!.labels).toBe(0);
    expect(s.get(c)).toEqual({ labels: 30, why: new Set(["variance"]) });
  });

  it("gives a rubric without an estimate a pilot, and never more than its unlabelled held-out items", () => {
    const pilot = plan("p", { labels: 0, heldoutItems: 30, further: null, unitVariance: null, unknown: "no gate labels yet" });
    const s = splitBudget([pilot], 100);
    expect(s.get(pilot)).toEqual({ labels: 30, why: new Set(["pilot"]) });
  });
});
