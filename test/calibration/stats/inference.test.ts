import { describe, expect, it } from "vitest";
import {
  cohenKappa, cohenKappaBootstrap, confusion, confusionTable, countsFromRatings, fleissKappa, krippendorffAlphaNominal,
  bootstrapInterval, mcnemarCounts, pairedBootstrapMeanDifference, ppiMean, ResampleCache, rates, roganGladen, roganGladenBootstrap, type Pair,
} from "../../../src/calibration/stats/index.js";

/** n pairs from a 2x2 of counts: tp (yes/yes), fp (judge yes, label no), fn, tn. */
function pairsOf(tp: number, fp: number, fn: number, tn: number): Pair[] {
  const out: Pair[] = [];
  const push = (k: number, judge: "yes" | "no", label: "yes" | "no") => { for (let i = 0; i < k; i++) out.push({ judge, label }); };
  push(tp, "yes", "yes"); push(fp, "yes", "no"); push(fn, "no", "yes"); push(tn, "no", "no");
  return out;
}

describe("confusion and rates", () => {
  it("counts cells with yes as the positive class and lays the table out judge x label", () => {
    const m = confusion(pairsOf(8, 2, 1, 4));
    expect(m).toMatchObject({ tp: 8, fp: 2, fn: 1, tn: 4, n: 15, count: 15 });
    expect(confusionTable(m)).toEqual([[8, 2], [1, 4]]);
    const r = rates(m);
    expect(r.agreement).toBeCloseTo(12 / 15, 15);
    expect(r.tpr).toBeCloseTo(8 / 9, 15);
    expect(r.tnr).toBeCloseTo(4 / 6, 15);
  });
  it("weights cells but keeps the item count", () => {
    const m = confusion([{ judge: "yes", label: "yes", weight: 10 }, { judge: "no", label: "yes", weight: 2 }]);
    expect(m).toMatchObject({ tp: 10, fn: 2, n: 12, count: 2 });
  });
  it("leaves a rate null with a reason when its class is absent", () => {
    const r = rates(confusion(pairsOf(3, 0, 1, 0)));
    expect(r.tnr).toBeNull();
    expect(r.reasons.tnr).toBe("no item labelled no");
    expect(rates(confusion([])).agreement).toBeNull();
  });
});

describe("cohenKappa options", () => {
  it("uses the given effective n for the standard errors only", () => {
    const full = cohenKappa([[20, 5], [10, 15]]);
    const half = cohenKappa([[20, 5], [10, 15]], { n: 25 });
    expect(half.kappa).toBe(full.kappa);
    expect(half.se! / full.se!).toBeCloseTo(Math.SQRT2, 12);
  });
  it("widens the interval with the level", () => {
    const k90 = cohenKappa([[20, 5], [10, 15]], { level: 0.9 });
    const k99 = cohenKappa([[20, 5], [10, 15]], { level: 0.99 });
    expect(k99.ci!.hi - k99.ci!.lo).toBeGreaterThan(k90.ci!.hi - k90.ci!.lo);
  });
});

describe("cohenKappaBootstrap", () => {
  const pairs = pairsOf(40, 6, 5, 30);
  it("is reproducible for a seed and differs across seeds", () => {
    const a = cohenKappaBootstrap(pairs, { seed: 7, reps: 500 });
    const b = cohenKappaBootstrap(pairs, { seed: 7, reps: 500 });
    const c = cohenKappaBootstrap(pairs, { seed: 8, reps: 500 });
    expect(a.ci).toEqual(b.ci);
    expect(a.ci).not.toEqual(c.ci);
  });
  it("brackets the point estimate and roughly matches the asymptotic interval", () => {
    const k = cohenKappa(confusionTable(confusion(pairs)));
    const boot = cohenKappaBootstrap(pairs, { seed: 1, reps: 2000 });
    expect(boot.ci!.lo).toBeLessThan(k.kappa!);
    expect(boot.ci!.hi).toBeGreaterThan(k.kappa!);
    expect(Math.abs(boot.ci!.lo - k.ci!.lo)).toBeLessThan(0.05);
    expect(Math.abs(boot.ci!.hi - k.ci!.hi)).toBeLessThan(0.05);
  });
  it("counts replicates where kappa is undefined and refuses an interval when most are", () => {
    const skewed = cohenKappaBootstrap(pairsOf(30, 0, 0, 1), { seed: 3, reps: 400 });
    expect(skewed.undefinedReps).toBeGreaterThan(0);
    const constant = cohenKappaBootstrap(pairsOf(10, 0, 0, 0), { seed: 3, reps: 100 });
    expect(constant.ci).toBeNull();
    expect(constant.reason).toMatch(/undefined in 100 of 100/);
    expect(cohenKappaBootstrap([], {}).reason).toBe("no items");
  });
});

describe("Rogan-Gladen", () => {
  it("clips to [0, 1] and keeps the unclipped value", () => {
    const low = roganGladen(0.05, 0.9, 0.9);
    expect(low.unclipped).toBeCloseTo(-0.0625, 12);
    expect(low.estimate).toBe(0);
    expect(low.clipped).toBe(true);
    expect(roganGladen(0.99, 0.9, 0.95).estimate).toBe(1);
  });
  it("is undefined when TPR + TNR <= 1", () => {
    for (const [tpr, tnr] of [[0.5, 0.5], [0.3, 0.6]] as const) {
      const rg = roganGladen(0.5, tpr, tnr);
      expect(rg.estimate).toBeNull();
      expect(rg.reason).toMatch(/<= 1/);
    }
  });
  it("bootstraps labelled and unlabelled items reproducibly", () => {
    const verdicts: (0 | 1)[] = [...Array(300).fill(1), ...Array(100).fill(0)];
    const labelled = [
      ...Array(45).fill({ judge: 1, label: 1 }), ...Array(5).fill({ judge: 0, label: 1 }),
      ...Array(8).fill({ judge: 1, label: 0 }), ...Array(12).fill({ judge: 0, label: 0 }),
    ];
    const a = roganGladenBootstrap(verdicts, labelled, { seed: 5, reps: 1000 });
    const b = roganGladenBootstrap(verdicts, labelled, { seed: 5, reps: 1000 });
    expect(a).toEqual(b);
    expect(a.tpr).toBeCloseTo(0.9, 12);
    expect(a.tnr).toBeCloseTo(0.6, 12);
    expect(a.estimate).toBeCloseTo((0.75 + 0.6 - 1) / 0.5, 12);
    expect(a.bootstrap.ci!.lo).toBeLessThan(a.estimate!);
    expect(a.bootstrap.ci!.hi).toBeGreaterThan(a.estimate!);
    // The labelled sample's uncertainty dominates: far wider than the apparent rate's own ±0.04.
    expect(a.bootstrap.ci!.hi - a.bootstrap.ci!.lo).toBeGreaterThan(0.15);
  });
  it("says which of TPR and TNR is unknown, and why, when it cannot correct", () => {
    const verdicts: (0 | 1)[] = [1, 0, 1];
    expect(roganGladenBootstrap(verdicts, [], { seed: 1, reps: 10 }).reason).toBe("no labelled items, so TPR and TNR are unknown");
    expect(roganGladenBootstrap(verdicts, [{ judge: 1, label: 0 }], { seed: 1, reps: 10 }).reason).toBe("no labelled item is yes, so TPR is unknown");
    expect(roganGladenBootstrap(verdicts, [{ judge: 1, label: 1 }], { seed: 1, reps: 10 }).reason).toBe("no labelled item is no, so TNR is unknown");
    expect(roganGladenBootstrap([], [], { seed: 1, reps: 10 }).reason).toBe("no judged items");
  });
  it("resamples a stratified frame within its strata, so no replicate loses a stratum", () => {
    const verdicts: (0 | 1)[] = [1, 1, 0, 0, 1, 0, 1, 0];
    const labelled = [
      { judge: 1 as const, label: 1 as const, weight: 2, stratum: "judge-yes" }, { judge: 1 as const, label: 1 as const, weight: 2, stratum: "judge-yes" },
      { judge: 0 as const, label: 0 as const, weight: 2, stratum: "judge-no" }, { judge: 0 as const, label: 0 as const, weight: 2, stratum: "judge-no" },
    ];
    const stratified = roganGladenBootstrap(verdicts, labelled, { seed: 1, reps: 400 });
    expect(stratified.bootstrap.undefinedReps).toBe(0);
    // Pooled resampling loses a class in about 1/8 of replicates.
    const pooled = roganGladenBootstrap(verdicts, labelled.map(({ stratum: _s, ...l }) => l), { seed: 1, reps: 400 });
    expect(pooled.bootstrap.undefinedReps).toBeGreaterThan(20);
  });
  it("says why when a class is missing from the labels", () => {
    const rg = roganGladenBootstrap([1, 0, 1], [{ judge: 1, label: 1 }], { reps: 10 });
    expect(rg.estimate).toBeNull();
    expect(rg.reason).toMatch(/TNR is unknown/);
    expect(rg.bootstrap.ci).toBeNull();
  });
});

describe("ppiMean", () => {
  it("is mean prediction minus the rectifier, with the PPI standard error", () => {
    const r = ppiMean([1, 1, 0, 1], [{ prediction: 1, label: 0 }, { prediction: 0, label: 0 }], { clip: false });
    expect(r.meanPrediction).toBe(0.75);
    expect(r.rectifier).toBe(0.5);
    expect(r.estimate).toBe(0.25);
    expect(r.se).toBeCloseTo(Math.sqrt(0.25 / 4 + 0.5 / 2), 14);
    expect(r.ci!.lo).toBeCloseTo(0.25 - 1.959963984540054 * r.se!, 12);
  });
  it("clips estimate and interval to [0, 1] by default", () => {
    const r = ppiMean([1, 1, 0, 1], [{ prediction: 1, label: 0 }, { prediction: 0, label: 0 }]);
    expect(r.ci).toEqual({ lo: 0, hi: 1 });
    const over = ppiMean([1, 1, 1, 1], [{ prediction: 0, label: 1 }, { prediction: 1, label: 1 }]);
    expect(over.unclipped).toBe(1.5);
    expect(over.estimate).toBe(1);
  });
  it("is unchanged by a constant weight and moved by unequal weights", () => {
    const lab = [{ prediction: 1, label: 1 }, { prediction: 1, label: 0 }, { prediction: 0, label: 0 }];
    const plain = ppiMean([1, 1, 0, 1, 0], lab);
    const same = ppiMean([1, 1, 0, 1, 0], lab.map((l) => ({ ...l, weight: 10 })));
    expect(same.estimate).toBeCloseTo(plain.estimate!, 14);
    expect(same.se).toBeCloseTo(plain.se!, 14);
    const tilted = ppiMean([1, 1, 0, 1, 0], lab.map((l, i) => ({ ...l, weight: i === 1 ? 5 : 1 })));
    expect(tilted.rectifier).toBeCloseTo(5 / 7, 14);
  });
  it("uses the stratified variance for a stratified frame weighted by inverse inclusion probability", () => {
    // Stratum a: 20 items, 4 labelled, f - y = [1, 0, 0, 1]; stratum b: 80 items, 5 labelled, f - y = [0, 0, 0, 1, 0].
    const item = (d: number, stratum: string, weight: number) => ({ prediction: 1, label: 1 - d, weight, stratum });
    const lab = [...[1, 0, 0, 1].map((d) => item(d, "a", 20 / 4)), ...[0, 0, 0, 1, 0].map((d) => item(d, "b", 80 / 5))];
    const predictions = [...Array(60).fill(1), ...Array(40).fill(0)];
    const r = ppiMean(predictions, lab, { clip: false });
    expect(r.rectifier).toBeCloseTo(0.2 * 0.5 + 0.8 * 0.2, 14);
    // Cochran (1977) eq. 5.6 without the finite-population correction: Σ W_h² s_h² / n_h.
    const stratifiedVar = 0.2 ** 2 * (1 / 3) / 4 + 0.8 ** 2 * 0.2 / 5;
    const fVar = (60 * 0.4 ** 2 + 40 * 0.6 ** 2) / 99 / 100;
    expect(r.se).toBeCloseTo(Math.sqrt(fVar + stratifiedVar), 12);
  });
  it("gives reasons instead of numbers when it cannot estimate", () => {
    expect(ppiMean([1, 0], []).reasons.estimate).toMatch(/no labelled items/);
    const one = ppiMean([1, 0], [{ prediction: 1, label: 1 }]);
    expect(one.estimate).toBe(0.5);
    expect(one.ci).toBeNull();
    expect(one.reasons.ci).toMatch(/at least 2/);
  });
});

describe("McNemar on small counts", () => {
  it("recommends the exact test below 25 discordant pairs", () => {
    const m = mcnemarCounts(5, 1);
    expect(m.pExact).toBeCloseTo(14 / 64, 15);
    expect(m.chi2).toBeCloseTo(16 / 6, 14);
    expect(m.chi2Corrected).toBeCloseTo(1.5, 14);
    expect(m.recommended).toBe("exact");
    expect(m.pRecommended).toBe(m.pExact);
  });
  it("floors Edwards' correction at b = c", () => {
    const m = mcnemarCounts(3, 3);
    expect(m.chi2Corrected).toBe(0);
    expect(m.pCorrected).toBe(1);
    expect(m.pExact).toBe(1);
  });
  it("has no chi-square without discordant pairs", () => {
    const m = mcnemarCounts(0, 0);
    expect(m.chi2).toBeNull();
    expect(m.reasons.chi2).toMatch(/no discordant/);
    expect(m.pExact).toBe(1);
  });
  it("uses Edwards' p from 25 discordant pairs on", () => {
    const m = mcnemarCounts(20, 10);
    expect(m.recommended).toBe("corrected");
    expect(m.pRecommended).toBe(m.pCorrected);
  });
});

describe("pairedBootstrapMeanDifference", () => {
  it("gives the mean difference and a reproducible interval inside the range of differences", () => {
    const x = [0.9, 0.7, 1, 0.4, 0.6];
    const y = [0.8, 0.7, 0.5, 0.4, 0.5];
    const a = pairedBootstrapMeanDifference(x, y, { seed: 11, reps: 1000 });
    expect(a.meanDifference).toBeCloseTo(0.14, 14);
    expect(a.bootstrap.ci!.lo).toBeGreaterThanOrEqual(0);
    expect(a.bootstrap.ci!.hi).toBeLessThanOrEqual(0.5);
    expect(pairedBootstrapMeanDifference(x, y, { seed: 11, reps: 1000 })).toEqual(a);
  });
  it("rejects unequal lengths and handles no pairs", () => {
    expect(() => pairedBootstrapMeanDifference([1], [1, 2])).toThrow(RangeError);
    expect(pairedBootstrapMeanDifference([], []).meanDifference).toBeNull();
    expect(pairedBootstrapMeanDifference([], [], { resamples: new ResampleCache() }).bootstrap).toEqual(pairedBootstrapMeanDifference([], []).bootstrap);
  });

  /** The interval as defined: every replicate resamples the n differences by bootstrapInterval's draws and takes their mean in draw order. */
  const reference = (x: readonly number[], y: readonly number[], seed: number, reps: number) => {
    const d = x.map((v, i) => v - y[i]!);
    return bootstrapInterval(d.length, (idx) => {
      let s = 0;
      for (const i of idx) s += d[i]!;
      return s / idx.length;
    }, { seed, reps });
  };
  const sample = (n: number, salt: number) => Array.from({ length: n }, (_, i) => ((i * 7919 + salt * 104729) % 1000) / 997);

  it("gives, bit for bit, the defined interval with shared resamples: kept, evicted and drawn again, or never kept (too large)", () => {
    // a budget of 1,500 indices keeps one set of 3 x 300 at a time, so the sizes below evict each other
    const caches = [new ResampleCache(), new ResampleCache(1_500), new ResampleCache(10)];
    const calls: [number, number, number][] = [[300, 1, 3], [500, 2, 3], [300, 3, 3], [300, 4, 3], [500, 5, 3], [70_000, 6, 2]];
    for (const resamples of caches) {
      for (const [n, salt, reps] of calls) {
        const x = sample(n, salt);
        const y = sample(n, salt + 1);
        const got = pairedBootstrapMeanDifference(x, y, { seed: 5, reps, resamples });
        expect(got.bootstrap).toEqual(reference(x, y, 5, reps));
        expect(got).toEqual(pairedBootstrapMeanDifference(x, y, { seed: 5, reps }));
      }
    }
    // more replicates: the percentiles of 2,000 means, and another seed
    const x = sample(800, 9);
    const y = sample(800, 10);
    const shared = new ResampleCache();
    pairedBootstrapMeanDifference(y, x, { seed: 21, reps: 2000, resamples: shared });
    expect(pairedBootstrapMeanDifference(x, y, { seed: 21, reps: 2000, resamples: shared }).bootstrap).toEqual(reference(x, y, 21, 2000));
  });

  it("keeps the most recently used sets within its budget of indices", () => {
    const cache = new ResampleCache(1_000);
    const a = cache.indices(1, 2, 300)!; // 600 indices
    expect(cache.indices(1, 2, 300)).toBe(a); // kept
    const b = cache.indices(1, 2, 200)!; // 400 more: 1,000 in all
    expect(cache.indices(1, 2, 300)).toBe(a);
    cache.indices(1, 2, 100); // 200 more: the least recently used (200) goes
    expect(cache.indices(1, 2, 300)).toBe(a);
    expect(cache.indices(1, 2, 200)).not.toBe(b);
    expect(cache.indices(1, 2, 501)).toBeUndefined(); // 1,002: never kept
    expect(cache.indices(2, 2, 300)).not.toEqual(a); // another seed, other resamples
  });
});

describe("multi-rater statistics with missing labels", () => {
  const ratings = [
    ["yes", "yes", "no", "no", "yes", null],
    ["yes", "no", "no", "no", "yes", "yes"],
    [null, "yes", "no", "yes", "yes", null],
  ];
  it("Fleiss drops subjects with fewer than two ratings", () => {
    const counts = countsFromRatings(ratings, ["yes", "no"]);
    expect(counts[5]).toEqual([1, 0]);
    const f = fleissKappa(counts);
    expect(f.subjects).toBe(5);
    // P_i: [1, 1/3, 1, 1/3, 1] -> P̄ = 11/15; pooled p = (8/14, 6/14) -> P̄_e = 100/196.
    expect(f.pBar).toBeCloseTo(11 / 15, 14);
    expect(f.pe).toBeCloseTo(100 / 196, 14);
  });
  it("Fleiss equals the complete-data formula when no rating is missing", () => {
    const full = countsFromRatings([["yes", "no", "yes"], ["yes", "no", "no"]], ["yes", "no"]);
    expect(fleissKappa(full).kappa).toBeCloseTo((2 / 3 - 0.5) / 0.5, 14);
  });
  it("Krippendorff: perfect agreement is 1, one value everywhere is undefined", () => {
    expect(krippendorffAlphaNominal([["a", "b", null], ["a", "b", "a"]]).alpha).toBe(1);
    const same = krippendorffAlphaNominal([["a", "a"], ["a", "a"]]);
    expect(same.alpha).toBeNull();
    expect(same.reasons.alpha).toMatch(/same/);
    expect(krippendorffAlphaNominal([["a", null], [null, "b"]]).reasons.alpha).toMatch(/no unit/);
    expect(fleissKappa([[2, 0], [2, 0]]).kappa).toBeNull();
  });
});
