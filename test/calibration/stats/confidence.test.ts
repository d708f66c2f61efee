/** ROC AUC, the reliability diagram with ECE, and the dev-chosen threshold: checked against brute force and by hand. */
import { describe, expect, it } from "vitest";
import { bestThreshold, kappaAt, reliability, rocAuc, type ScoredItem } from "../../../src/calibration/stats/index.js";
import { mulberry32 } from "../../helpers/seeded.js";

function randomItems(n: number, seed: number): ScoredItem[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const label = r() < 0.6 ? "yes" : "no";
    // Coarse scores so ties happen; informative but noisy.
    const score = Math.round(Math.min(1, Math.max(0, (label === "yes" ? 0.62 : 0.4) + (r() - 0.5) * 0.7)) * 20) / 20;
    return { score, label, weight: 1 + Math.floor(r() * 3) };
  });
}

/** AUC by every (yes, no) pair, ties half: the definition. */
function bruteAuc(items: readonly ScoredItem[], weighted: boolean): number {
  let num = 0;
  let den = 0;
  for (const a of items) {
    if (a.label !== "yes") continue;
    for (const b of items) {
      if (b.label !== "no") continue;
      const w = weighted ? (a.weight ?? 1) * (b.weight ?? 1) : 1;
      num += w * (a.score > b.score ? 1 : a.score === b.score ? 0.5 : 0);
      den += w;
    }
  }
  return num / den;
}

describe("rocAuc", () => {
  it("equals the pairwise definition, with ties counting half and weights counting per pair", () => {
    for (const seed of [1, 2, 3]) {
      const items = randomItems(80, seed);
      expect(rocAuc(items).auc).toBeCloseTo(bruteAuc(items, true), 12);
      expect(rocAuc(items.map(({ weight: _w, ...i }) => i)).auc).toBeCloseTo(bruteAuc(items, false), 12);
    }
    expect(rocAuc([{ score: 0.9, label: "yes" }, { score: 0.2, label: "no" }, { score: 0.2, label: "yes" }]).auc).toBe(0.75);
  });

  it("has Hanley and McNeil's interval, and no AUC with a class missing", () => {
    const items = randomItems(60, 4).map(({ weight: _w, ...i }) => i);
    const r = rocAuc(items);
    const a = r.auc!;
    const q1 = a / (2 - a);
    const q2 = (2 * a * a) / (1 + a);
    const se = Math.sqrt((a * (1 - a) + (r.nYes - 1) * (q1 - a * a) + (r.nNo - 1) * (q2 - a * a)) / (r.nYes * r.nNo));
    expect(r.ci!.lo).toBeCloseTo(a - 1.959963984540054 * se, 12);
    expect(r.n).toBe(60);
    expect(rocAuc([{ score: 0.3, label: "yes" }])).toMatchObject({ auc: null, ci: null, reason: "no item labelled no" });
    expect(rocAuc([])).toMatchObject({ auc: null, n: 0 });
  });
});

describe("reliability", () => {
  it("bins P(yes) in tenths, with each bin's mean and observed share, ECE and Brier", () => {
    const r = reliability([{ score: 0.9, label: "yes" }, { score: 0.8, label: "no" }, { score: 1, label: "yes" }, { score: 0, label: "no" }]);
    expect(r.bins).toHaveLength(10);
    expect(r.bins[9]).toMatchObject({ lo: 0.9, hi: 1, n: 2, meanScore: 0.95, observed: 1 });
    expect(r.bins[8]).toMatchObject({ n: 1, meanScore: 0.8, observed: 0 });
    expect(r.bins[0]).toMatchObject({ n: 1, meanScore: 0, observed: 0 });
    expect(r.bins[5]).toMatchObject({ n: 0, meanScore: null, observed: null });
    expect(r.ece).toBeCloseTo((2 / 4) * 0.05 + (1 / 4) * 0.8, 12);
    expect(r.brier).toBeCloseTo((0.01 + 0.64 + 0 + 0) / 4, 12);
    expect(reliability([])).toMatchObject({ n: 0, ece: null, brier: null });
  });

  it("a weight counts as that many copies of the item", () => {
    const items = randomItems(50, 5);
    const copies = items.flatMap((i) => Array.from({ length: i.weight! }, () => ({ score: i.score, label: i.label })));
    const a = reliability(items);
    const b = reliability(copies);
    expect(a.ece).toBeCloseTo(b.ece!, 12);
    expect(a.brier).toBeCloseTo(b.brier!, 12);
    expect(a.bins.map((x) => x.observed)).toEqual(b.bins.map((x) => x.observed));
  });
});

describe("bestThreshold and kappaAt", () => {
  it("chooses the midpoint maximising kappa on dev, ties nearest 0.5", () => {
    expect(bestThreshold([{ score: 0.7, label: "yes" }, { score: 0.4, label: "yes" }, { score: 0.2, label: "no" }])).toEqual({ threshold: expect.closeTo(0.3, 12), kappa: 1, n: 3 });
    // Both 0.5 and 0.45 separate perfectly: 0.5 wins.
    expect(bestThreshold([{ score: 0.6, label: "yes" }, { score: 0.3, label: "no" }]).threshold).toBe(0.5);
    expect(bestThreshold([])).toMatchObject({ threshold: null, reason: "no dev labels with a P(yes)" });
    expect(bestThreshold([{ score: 0.6, label: "yes" }])).toMatchObject({ threshold: null, reason: "the dev labels are all one answer" });
  });

  it("is at least as good on dev as every other cut, and kappaAt applies a cut as verdicts P(yes) >= t", () => {
    const dev = randomItems(120, 6).map(({ weight: _w, ...i }) => i);
    const best = bestThreshold(dev);
    for (let t = 0; t <= 1; t += 0.01) expect(kappaAt(dev, t).kappa ?? -1).toBeLessThanOrEqual(best.kappa! + 1e-12);
    const k = kappaAt([{ score: 0.7, label: "yes" }, { score: 0.5, label: "no" }, { score: 0.2, label: "no" }], 0.5);
    expect(k.kappa).toBeCloseTo(0.4, 12);
  });
});
