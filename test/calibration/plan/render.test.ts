import { describe, expect, it } from "vitest";
import type { GroupPlan } from "../../../src/calibration/plan/plan.js";
import { renderPlan } from "../../../src/calibration/plan/render.js";

const ONE_SIDED = "the labels or the verdicts are all one answer so far: kappa's variance is not defined at today's estimates";

/** A plan whose kappa cannot be estimated yet, with `labels` of `heldoutItems` labelled. */
function plan(labels: number, heldoutItems: number, unknown = ONE_SIDED): GroupPlan {
  return {
    rubric: "correctness", fingerprint: "f".repeat(64), servedModel: null, heldoutItems, labels, skipped: 0, labelYes: labels, labelNo: 0,
    otherLabels: 0, labelledHeldout: labels, weighted: false, kappa: null, ci: null, designKappa: { kappa: null, se: null, ci: null },
    kappaLower: 0.6, minLabels: 50, minPerClass: 10, cells: null, simulated: null,
    need: { kappa: null, unitVariance: null, total: null, further: null, bound: null, unknown },
    passRate: { judged: heldoutItems, estimate: null, ci: null, width: null, target: 0.1, need: null, unknown: "fewer than 2 gate labels" },
  } as unknown as GroupPlan;
}

/** The line after "kappa ..." in the plan's text. */
const kappaNext = (p: GroupPlan) => renderPlan([p]).split("\n")[3]!;

describe("renderPlan's advice while kappa cannot be estimated", () => {
  it("asks for a pilot while the pilot is not labelled", () => {
    expect(kappaNext(plan(0, 80, "no gate labels yet: nothing to estimate kappa from"))).toBe("    next: no gate labels yet: nothing to estimate kappa from; label a random pilot of 50 more held-out items first");
    expect(kappaNext(plan(20, 80))).toBe(`    next: ${ONE_SIDED}; label a random pilot of 30 more held-out items first`);
  });

  it("never asks for a pilot of 0 more: with the pilot labelled and every label one answer, it asks for more until both appear", () => {
    expect(kappaNext(plan(50, 80))).toBe(`    next: ${ONE_SIDED}; label more random held-out items (30 left) until both answers appear among the labels and the verdicts (the gate needs 10 labels of each answer)`);
    // a small project's minPerClass of 1 reads "1 label", not "1 labels"
    const small = { ...plan(5, 12), minLabels: 5, minPerClass: 1 } as GroupPlan;
    expect(kappaNext(small)).toBe(`    next: ${ONE_SIDED}; label more random held-out items (7 left) until both answers appear among the labels and the verdicts (the gate needs 1 label of each answer)`);
  });

  it("says it cannot when every held-out item is labelled and all are one answer (it said to label a pilot of 0 more)", () => {
    const plan60 = { ...plan(60, 60), minLabels: 50 } as GroupPlan;
    expect(kappaNext(plan60)).toBe("    cannot: every held-out item is labelled and the labels or the verdicts are all one answer, so kappa is not defined; the gate also needs 10 labels of each answer: put questions whose answers should be judged the other way in the held-out split");
    expect(renderPlan([plan60])).not.toMatch(/of 0 more/);
  });

  it("says it cannot, as its closing line does, when the held-out split has fewer items than minLabels (it asked for a pilot of them)", () => {
    expect(kappaNext(plan(0, 8, "no gate labels yet: nothing to estimate kappa from"))).toBe("    cannot: the gate needs 50 labels (minLabels) but only 8 held-out items exist: put more questions in the held-out split");
    expect(kappaNext(plan(36, 36))).toBe("    cannot: the gate needs 50 labels (minLabels) but only 36 held-out items exist: put more questions in the held-out split");
  });
});
