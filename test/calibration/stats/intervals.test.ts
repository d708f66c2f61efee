/**
 * Intervals that do not collapse (issue 12): kappa's goodness-of-fit
 * interval against independently computed reference values, the gate's
 * union interval at and near perfect agreement, Fisher's exact test, the
 * "not informative" flags of PPI and Rogan-Gladen, and the statistics
 * registry the README's table comes from.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ppiUninformative, roganGladenUninformative } from "../../../src/calibration/corrected.js";
import { agreementFigures } from "../../../src/calibration/figures.js";
import { gateInterval } from "../../../src/calibration/gate.js";
import { gateFiguresOf } from "../../../src/calibration/trust.js";
import {
  cohenKappa, fisherExact, kappaGofInterval, ppiMean, PPI_MIN_LABELS, renderStatisticsMarkdown, roganGladenBootstrap, STATISTICS,
} from "../../../src/calibration/stats/index.js";
import type { PairedItem } from "../../../src/calibration/pairing.js";
import { fixturePath, ROOT } from "../../helpers/paths.js";
import { join } from "node:path";

const ref = JSON.parse(readFileSync(fixturePath("kappa-gof-reference.json"), "utf8")) as { tolerance: number; cases: { table: number[][]; kappa: number; lo: number; hi: number; note: string }[] };

/** Paired items for a 2x2 table [[yy, yn], [ny, nn]] (judge x label). */
function pairs(t: number[][]): PairedItem[] {
  const out: PairedItem[] = [];
  const cell = (judge: "yes" | "no", label: "yes" | "no", n: number) => {
    for (let i = 0; i < n; i++) out.push({ judged: { verdict: judge } as PairedItem["judged"], labelled: {} as PairedItem["labelled"], label, weight: 1 });
  };
  cell("yes", "yes", t[0]![0]!); cell("yes", "no", t[0]![1]!); cell("no", "yes", t[1]![0]!); cell("no", "no", t[1]![1]!);
  return out;
}

describe("kappa's goodness-of-fit interval (Donner & Eliasziw 1992)", () => {
  for (const c of ref.cases) {
    it(`matches the reference on ${JSON.stringify(c.table)} (${c.note})`, () => {
      const g = kappaGofInterval(c.table);
      expect(g.kappa!).toBeCloseTo(c.kappa, 8);
      expect(Math.abs(g.ci!.lo - c.lo)).toBeLessThan(ref.tolerance);
      expect(Math.abs(g.ci!.hi - c.hi)).toBeLessThan(ref.tolerance);
    });
  }

  it("is undefined when both raters give one and the same label, and empty without items", () => {
    expect(kappaGofInterval([[10, 0], [0, 0]])).toMatchObject({ kappa: null, ci: null });
    expect(kappaGofInterval([[0, 0], [0, 0]]).reason).toBe("no items");
  });
});

describe("the gate's interval", () => {
  it("does not collapse at perfect agreement on 46 labels: the asymptotic [1, 1] joins the goodness-of-fit bound", () => {
    const t = [[30, 0], [0, 16]];
    const asymptotic = cohenKappa(t).ci!;
    expect(asymptotic).toEqual({ lo: 1, hi: 1 });
    const ci = gateInterval(gateFiguresOf(agreementFigures(pairs(t))))!;
    expect(ci.hi).toBe(1);
    expect(Math.abs(ci.lo - 0.8315641353)).toBeLessThan(1e-8);
  });

  it("is the asymptotic one where that is the wider, and never narrower than either", () => {
    for (const t of [[[45, 5], [5, 45]], [[36, 5], [4, 25]], [[20, 5], [10, 15]], [[44, 1], [1, 0]]]) {
      const f = agreementFigures(pairs(t));
      const ci = gateInterval(gateFiguresOf(f));
      if (!ci) continue;
      expect(ci.lo).toBeLessThanOrEqual(f.kappa.ci!.lo + 1e-15);
      if (f.kappaGof.ci) expect(ci.lo).toBeLessThanOrEqual(f.kappaGof.ci.lo + 1e-15);
      expect(ci.hi).toBeGreaterThanOrEqual(f.kappa.ci!.hi - 1e-15);
    }
  });

  it("keeps an honest random held-out sample of 100 labels with kappa 0.8 above the default threshold of 0.6", () => {
    for (const t of [[[45, 5], [5, 45]], [[66, 4], [4, 26]]]) {
      const f = agreementFigures(pairs(t));
      expect(f.kappa.kappa!).toBeGreaterThan(0.79);
      expect(gateInterval(gateFiguresOf(f))!.lo).toBeGreaterThanOrEqual(0.6);
    }
  });
});

describe("Fisher's exact test", () => {
  it("reproduces Fisher's tea-tasting table and exact hypergeometric sums", () => {
    expect(fisherExact([[3, 1], [1, 3]])).toBeCloseTo(34 / 70, 12);
    // [[4, 0], [0, 4]]: the two extreme tables of 70, each 1/70.
    expect(fisherExact([[4, 0], [0, 4]])).toBeCloseTo(2 / 70, 12);
    expect(fisherExact([[2, 2], [2, 2]])).toBeCloseTo(1, 12);
    expect(fisherExact([[0, 0], [0, 0]])).toBe(1);
  });
});

describe("corrections flagged not informative", () => {
  it("flags PPI from 9 agreeing labels of a yes-to-everything judge: 1.000 [1.000, 1.000] is not certainty", () => {
    const verdicts = Array<1>(48).fill(1);
    const nine = Array.from({ length: 9 }, () => ({ prediction: 1, label: 1 }));
    const ppi = ppiMean(verdicts, nine);
    expect(ppi.estimate).toBe(1);
    expect(ppi.ci).toEqual({ lo: 1, hi: 1 });
    expect(ppiUninformative(ppi)).toBe(`only 9 labelled items (PPI needs ${PPI_MIN_LABELS}), and its interval has zero width (every verdict and every judge-minus-label difference is the same), not certainty`);
    // Enough labels with some disagreement: informative.
    const many = Array.from({ length: 40 }, (_, i) => ({ prediction: 1, label: i % 5 ? 1 : 0 }));
    expect(ppiUninformative(ppiMean(verdicts, many))).toBeNull();
  });

  it("flags Rogan-Gladen below 10 labels of a class", () => {
    const labelled = [...Array.from({ length: 30 }, () => ({ judge: 1 as const, label: 1 as const })), ...Array.from({ length: 4 }, () => ({ judge: 0 as const, label: 0 as const }))];
    const rg = roganGladenBootstrap(Array<0 | 1>(50).fill(1).map((v, i) => (i % 7 ? v : 0)), labelled, { seed: 1, reps: 200 });
    expect(rg.estimate).not.toBeNull();
    expect(roganGladenUninformative(rg, labelled)).toMatch(/^30 yes \/ 4 no labels \(Rogan-Gladen needs 10 of each/);
  });
});

describe("the statistics registry", () => {
  it("names a published source for every statistic, and the README's table is rendered from it", () => {
    for (const s of STATISTICS) expect(s.source).toMatch(/\(\d{4}\)/);
    expect(STATISTICS.map((s) => s.id)).toContain("kappa-gof");
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(renderStatisticsMarkdown());
  });
});
