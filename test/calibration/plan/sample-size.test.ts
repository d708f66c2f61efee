import { describe, expect, it } from "vitest";
import { kappaLabelsNeeded, ppiLabelsNeeded } from "../../../src/calibration/plan/sample-size.js";
import { simulatedLabelsNeeded } from "../../../src/calibration/plan/simulate.js";
import { kappaAt, unitKappaVariance } from "../../../src/calibration/plan/kappa-linear.js";

const gate = { kappaLower: 0.6, minLabels: 50, minPerClass: 10 };
const cells = { tp: 0.62, fp: 0.04, fn: 0.06, tn: 0.28 };

describe("labels needed for the gate", () => {
  it("solves kappa - z·sqrt(V/n) = threshold at today's estimates, and the simulation of the gate's interval agrees within 15%", () => {
    const need = kappaLabelsNeeded({ cells, n: 30, ...gate, population: 5000 });
    const k = kappaAt(cells)!;
    const v = unitKappaVariance(cells)!;
    expect(need.nFormula).toBe(Math.ceil((1.959963984540054 ** 2 * v) / (k - 0.6) ** 2));
    // The gate's goodness-of-fit half is skewed below a high kappa: on the expected table it needs more.
    expect(need.nInterval).toBeGreaterThan(need.nFormula!);
    expect(need.total).toBe(need.nInterval);
    expect(need.further).toBe(need.total! - 30);
    expect(need.bound).toBe("interval");
    const sim = simulatedLabelsNeeded(cells, 0.6, 3 * need.nInterval!, { reps: 400, seed: 3 });
    expect(Math.abs(sim.n! - need.nInterval!) / need.nInterval!).toBeLessThan(0.15);
  });

  it("says it cannot at a kappa at or below the threshold, with the kappa it would need", () => {
    const low = kappaLabelsNeeded({ cells: { tp: 0.5, fp: 0.15, fn: 0.1, tn: 0.25 }, n: 40, ...gate, population: 300 });
    expect(low.further).toBeNull();
    expect(low.cannot!.reason).toMatch(/^cannot at kappa 0\.4\d: more labels narrow the interval around 0\.4\d, never above 0\.60 \(needs >= 0\.\d\d with all 300 held-out items labelled\)$/);
    expect(low.cannot!.kappaNeeded).toBeGreaterThan(0.6);
  });

  it("never asks for fewer than the gate's minimums, nor more than the held-out items there are", () => {
    const perfect = kappaLabelsNeeded({ cells: { tp: 0.5, fp: 0, fn: 0, tn: 0.5 }, n: 10, ...gate, population: 1000 });
    expect(perfect).toMatchObject({ bound: "minLabels", total: 50, further: 40 });
    const skewed = kappaLabelsNeeded({ cells: { tp: 0.95, fp: 0, fn: 0, tn: 0.05 }, n: 10, ...gate, population: 1000 });
    expect(skewed).toMatchObject({ bound: "minPerClass", total: 200 });
    expect(kappaLabelsNeeded({ cells: { tp: 0.95, fp: 0, fn: 0, tn: 0.05 }, n: 10, ...gate, population: 120 }).cannot!.reason).toBe("cannot: the gate needs 200 labels (10 of each answer at a yes share of 0.95) but only 120 held-out items exist");
    // 9 yes / 1 no: 1 - 0.9 is 0.0999...98 in floating point, and 1 / that rounded up asked for an 11th label that
    // `calibrate` did not need (it already passed with 1 label of each answer)
    const oneNo = kappaLabelsNeeded({ cells: { tp: 0.9, fp: 0, fn: 0, tn: 0.1 }, n: 10, kappaLower: 0, minLabels: 5, minPerClass: 1, population: 16 });
    expect(oneNo).toMatchObject({ bound: "minPerClass", total: 10, further: 0 });
    const small = kappaLabelsNeeded({ cells, n: 30, ...gate, population: 40 });
    expect(small.cannot!.reason).toMatch(/only 40 held-out items exist/);
    expect(kappaLabelsNeeded({ cells, n: 0, ...gate, population: 40 }).unknown).toMatch(/no gate labels yet/);
  });

  it("names a kappa above today's when today's cannot pass on every held-out item: the gate's own interval, not the formula's", () => {
    // kappa 0.91 needs 11 labels with 10 items: the asymptotic formula said "needs >= 0.58", below the kappa it refused
    const few = kappaLabelsNeeded({ cells: { tp: 0.3, fp: 0.02, fn: 0.02, tn: 0.66 }, n: 10, kappaLower: 0.3, minLabels: 5, minPerClass: 2, population: 10 });
    expect(few.cannot!.kappaNeeded!).toBeGreaterThan(few.kappa!);
    expect(few.cannot!.reason).toBe("cannot at kappa 0.91: it needs 11 labels but only 10 held-out items exist (needs >= 0.92 with all of them labelled)");
    // and says so when not even agreement on every item passes
    const none = kappaLabelsNeeded({ cells: { tp: 0.35, fp: 0.05, fn: 0.05, tn: 0.55 }, n: 14, kappaLower: 0.6, minLabels: 5, minPerClass: 2, population: 14 });
    expect(none.cannot).toEqual({ reason: "cannot at kappa 0.79: it needs 70 labels but only 14 held-out items exist (not even full agreement on all of them would pass)", kappaNeeded: null });
  });

  it("sizes the corrected pass rate's interval from PPI's variance", () => {
    const need = ppiLabelsNeeded({ verdictVariance: 0.25, judged: 10000, unitVariance: 0.1, width: 0.05, n: 20, population: 10000 });
    const room = (0.025 / 1.959963984540054) ** 2 - 0.25 / 10000;
    expect(need.total).toBe(Math.ceil(0.1 / room));
    expect(ppiLabelsNeeded({ verdictVariance: 0.25, judged: 100, unitVariance: 0.1, width: 0.05, n: 20, population: 100 }).cannot).toMatch(/judged items alone/);
  });
});
