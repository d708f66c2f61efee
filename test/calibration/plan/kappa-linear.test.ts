import { describe, expect, it } from "vitest";
import { designKappa, kappaAt, log1mInterval, unitKappaVariance } from "../../../src/calibration/plan/kappa-linear.js";
import { cohenKappa } from "../../../src/calibration/stats/index.js";

/** n pairs from a 2x2 table [[tp, fp], [fn, tn]] (rows judge, columns label). */
function pairsOf(tp: number, fp: number, fn: number, tn: number, extra: { weight?: number; stratum?: string } = {}) {
  const rep = (k: number, judge: 0 | 1, label: 0 | 1) => Array.from({ length: k }, () => ({ judge, label, ...extra }));
  return [...rep(tp, 1, 1), ...rep(fp, 1, 0), ...rep(fn, 0, 1), ...rep(tn, 0, 0)];
}

describe("kappa by linearisation", () => {
  it("is Fleiss, Cohen & Everitt's standard error under simple random sampling (up to n/(n - 1))", () => {
    const fce = cohenKappa([[20, 5], [10, 15]]);
    const d = designKappa(pairsOf(20, 5, 10, 15));
    expect(d.kappa).toBeCloseTo(0.4, 12);
    expect(d.se! * Math.sqrt(49 / 50)).toBeCloseTo(fce.se!, 10);
    expect(unitKappaVariance({ tp: 0.4, fp: 0.1, fn: 0.2, tn: 0.3 })).toBeCloseTo(50 * fce.se! ** 2, 10);
    expect(kappaAt({ tp: 0.4, fp: 0.1, fn: 0.2, tn: 0.3 })).toBeCloseTo(0.4, 12);
  });

  it("weights back a stratified sample and uses the stratified variance", () => {
    // Stratum "yes" (judge yes) 900 items, 40 drawn; stratum "no" 100 items, 40 drawn.
    const yes = pairsOf(36, 4, 0, 0, { weight: 900 / 40, stratum: "yes" });
    const no = pairsOf(0, 0, 12, 28, { weight: 100 / 40, stratum: "no" });
    const d = designKappa([...yes, ...no]);
    // Population estimate: tp 810, fp 90, fn 30, tn 70 of 1000.
    expect(d.kappa).toBeCloseTo(kappaAt({ tp: 0.81, fp: 0.09, fn: 0.03, tn: 0.07 })!, 10);
    expect(d.se).toBeGreaterThan(0);
    // Ignoring the strata (one stratum) gives a different, larger variance here: the strata explain the judge's share.
    const flat = designKappa([...yes, ...no].map(({ stratum: _s, ...p }) => p));
    expect(flat.se).toBeGreaterThan(d.se!);
  });

  it("says why when kappa has no variance", () => {
    expect(designKappa(pairsOf(5, 0, 0, 0)).reason).toMatch(/same single label/);
    expect(designKappa(pairsOf(5, 3, 0, 0)).reason).toMatch(/one rater gave a single label/);
    expect(unitKappaVariance({ tp: 0.5, fp: 0.5, fn: 0, tn: 0 })).toBeNull();
  });
});

describe("kappa's design-based interval", () => {
  it("is built on the log(1 - kappa) scale: lower bound further, upper bound nearer, never above 1", () => {
    const d = designKappa(pairsOf(20, 5, 10, 15));
    const z = 1.959963984540054;
    expect(d.ci!.lo).toBeCloseTo(1 - 0.6 * Math.exp((z * d.se!) / 0.6), 10);
    expect(d.ci!.hi).toBeCloseTo(1 - 0.6 * Math.exp((-z * d.se!) / 0.6), 10);
    expect(0.4 - d.ci!.lo).toBeGreaterThan(d.ci!.hi - 0.4);
    expect(log1mInterval(0.95, 0.2).hi).toBeLessThan(1);
    expect(log1mInterval(1, 0)).toEqual({ lo: 1, hi: 1 });
  });
});
