import { describe, expect, it } from "vitest";
import { labellingExhausted } from "../../src/report/labelling-limit.js";

type Rubric = Parameters<typeof labellingExhausted>[0];
const T = { minLabels: 50, minPerClass: 10, kappaLower: 0.6, minCoverage: 0.8 };
const rubric = (n: number, cells: { tp: number; fn: number; fp: number; tn: number }, heldoutItems: number, reason = "kappa-too-low"): Rubric =>
  ({ trust: { trusted: false, heldoutItems, n, thresholds: T, kappa: null, reason }, calibration: { confusion: cells } }) as unknown as Rubric;

describe("labellingExhausted", () => {
  it("does not call labelling hopeless on fewer labels than the gate needs (8 labels at kappa 0.50 are noise)", () => {
    expect(labellingExhausted(rubric(8, { tp: 3, fn: 1, fp: 1, tn: 3 }, 200))).toBeNull();
  });

  it("says so from minLabels gate labels on, in the planner's words", () => {
    expect(labellingExhausted(rubric(60, { tp: 20, fn: 10, fp: 10, tn: 20 }, 200))).toMatch(/^cannot at kappa 0\.33/);
  });

  it("every held-out item labelled: hopeless for kappa, but not when only an answer class is short (more questions help)", () => {
    expect(labellingExhausted(rubric(9, { tp: 3, fn: 2, fp: 2, tn: 2 }, 9))).toMatch(/^every one of its 9 held-out judged items is labelled already/);
    expect(labellingExhausted(rubric(9, { tp: 9, fn: 0, fp: 0, tn: 0 }, 9, "too-few-labels"))).toBeNull();
  });
});
