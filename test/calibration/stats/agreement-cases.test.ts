import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  cohenKappa, cohenKappaOfRatings, crossTable, fleissKappa, gwetAc1, krippendorffAlphaNominal, mcnemar,
  paradoxFigures, roganGladen, roganGladenKnownSe,
} from "../../../src/calibration/stats/index.js";
import { fixturePath } from "../../helpers/paths.js";

interface Case {
  id: string;
  statistic: string;
  inputs: Record<string, unknown>;
  expected: Record<string, number | null>;
  tolerance: number | Record<string, number>;
  expected_note: string | null;
}

const cases = JSON.parse(readFileSync(fixturePath("agreement-cases.json"), "utf8")) as Case[];

/**
 * Expected values the fixture prints with fewer digits than its tolerance can
 * check: compared to the exact value at the case's tolerance instead, and to
 * the printed value at half a unit of its last digit.
 */
const EXACT: Record<string, { exact: number; printedTolerance: number; why: string }> = {
  "edge_one_rater_constant.ac1": {
    exact: 89 / 149,
    printedTolerance: 5e-11,
    why: "AC1 = (0.7 - 0.255)/(1 - 0.255) = 89/149 = 0.5973154362416..., printed as 0.5973154362 with tolerance 1e-12",
  },
};

function tol(c: Case, key: string): number {
  return typeof c.tolerance === "number" ? c.tolerance : (c.tolerance[key] ?? c.tolerance.default ?? 0);
}

type Labels = (string | number)[];

/** The 2x2 or k x k table of a case: from the ratings when present (checked against the given table), else the table. */
function tableOf(c: Case): number[][] {
  const r1 = c.inputs.rater1 as Labels | undefined;
  const r2 = c.inputs.rater2 as Labels | undefined;
  const given = c.inputs.table as number[][] | undefined;
  if (r1 && r2) {
    const cats = typeof r1[0] === "string" || r1.length === 0 ? ["yes", "no"] : undefined;
    const { table } = crossTable(r1, r2, cats);
    if (given) expect(table).toEqual(given);
    return table;
  }
  return given!;
}

/** Every figure this implementation computes for a case, under the case's own key names. */
function compute(c: Case): Record<string, number | null> {
  switch (c.statistic) {
    case "cohen_kappa":
    case "cohen_kappa_edge":
    case "kappa_paradox(cohen,pabak,PI,BI,ac1)":
    case "gwet_ac1+pabak+prevalence_bias_indices":
    case "cohen_kappa_se": {
      const table = tableOf(c);
      const k = cohenKappa(table);
      const a = gwetAc1(table);
      const px = paradoxFigures(table);
      // Every null must say why.
      for (const [f, v] of Object.entries({ po: k.po, pe: k.pe, kappa: k.kappa })) if (v === null) expect(k.reasons[f as "po"]).toBeTruthy();
      if (a.ac1 === null) expect(a.reasons.ac1).toBeTruthy();
      if (px.pabak === null) expect(px.reasons.pabak).toBeTruthy();
      const pi = px.prevalenceIndex;
      const bi = px.biasIndex;
      const byrt = px.pabak !== null && pi !== null && bi !== null ? (px.pabak - pi ** 2 + bi ** 2) / (1 - pi ** 2 + bi ** 2) : null;
      return {
        kappa: k.kappa, po: k.po, pe: k.pe, se: k.se, se0: k.se0,
        ci95_low: k.ci?.lo ?? null, ci95_high: k.ci?.hi ?? null, z: k.z, p_two_sided: k.p,
        ac1: a.ac1, ac1_pa: a.pa, ac1_pe: a.pe, ac1_se: a.se,
        pabak: px.pabak, prevalence_index: pi, bias_index: bi, kappa_from_byrt_identity: byrt,
      };
    }
    case "fleiss_kappa": {
      const f = fleissKappa(c.inputs.counts as number[][]);
      return { kappa: f.kappa, P_bar: f.pBar, P_e: f.pe };
    }
    case "krippendorff_alpha_nominal": {
      const k = krippendorffAlphaNominal(c.inputs.matrix as (number | null)[][]);
      return { alpha: k.alpha, D_o: k.dObserved, D_e: k.dExpected, n_pairable: k.nPairable };
    }
    case "rogan_gladen": {
      const { positives, tested, sensitivity, specificity } = c.inputs as Record<string, number>;
      const ap = positives! / tested!;
      const rg = roganGladen(ap, sensitivity!, specificity!);
      return {
        apparent_prevalence: ap, true_prevalence: rg.estimate, unclipped: rg.unclipped,
        se_known_se_sp: roganGladenKnownSe(ap, tested!, sensitivity!, specificity!),
      };
    }
    case "mcnemar": {
      const m = mcnemar(c.inputs.table as number[][]);
      return {
        b: m.b, c: m.c, chi2_uncorrected: m.chi2, p_uncorrected: m.p,
        chi2_edwards: m.chi2Corrected, p_edwards: m.pCorrected,
        // Edwards' statistic before flooring |b - c| - 1 at 0: identical whenever |b - c| >= 1.
        chi2_edwards_unfloored: (Math.abs(m.b - m.c) - 1) ** 2 / (m.b + m.c),
        p_edwards_unfloored: m.pCorrected, p_exact_binomial: m.pExact,
      };
    }
    default:
      throw new Error(`no implementation mapped for statistic ${c.statistic}`);
  }
}

describe("published agreement cases (test/fixtures/agreement-cases.json)", () => {
  it("has all 21 cases", () => {
    expect(cases).toHaveLength(21);
  });

  for (const c of cases) {
    it(`${c.id} (${c.statistic})`, () => {
      const got = compute(c);
      for (const [key, want] of Object.entries(c.expected)) {
        expect(Object.hasOwn(got, key), `${c.id}: expected key ${key} has no computed figure`).toBe(true);
        const value = got[key];
        if (want === null) {
          expect(value, `${c.id}.${key}`).toBeNull();
        } else if (EXACT[`${c.id}.${key}`]) {
          const x = EXACT[`${c.id}.${key}`]!;
          expect(Math.abs(value! - x.exact), x.why).toBeLessThanOrEqual(tol(c, key));
          expect(Math.abs(value! - want), x.why).toBeLessThanOrEqual(x.printedTolerance);
        } else {
          expect(value, `${c.id}.${key}`).not.toBeNull();
          expect(Number.isFinite(value), `${c.id}.${key} finite`).toBe(true);
          expect(Math.abs(value! - want), `${c.id}.${key}: got ${value}, want ${want}`).toBeLessThanOrEqual(tol(c, key) + 1e-15 * Math.abs(want));
        }
      }
    });
  }

  it("kappa is symmetric in the raters (sklearn asserts equality)", () => {
    const c = cases.find((x) => x.id === "cohen_sklearn_artstein_poesio_2x2")!;
    const r1 = c.inputs.rater1 as number[];
    const r2 = c.inputs.rater2 as number[];
    expect(cohenKappaOfRatings(r1, r2).kappa).toBe(cohenKappaOfRatings(r2, r1).kappa);
  });

  it("one constant rater: se = se0 = 0 (variance floored), z and p undefined with a reason", () => {
    const k = cohenKappa([[7, 3], [0, 0]]);
    expect(k.kappa).toBe(0);
    expect(k.se).toBe(0);
    expect(k.se0).toBe(0);
    expect(k.z).toBeNull();
    expect(k.reasons.z).toMatch(/single label/);
  });

  it("n = 1: kappa defined when the raters disagree, but no standard error", () => {
    const k = cohenKappaOfRatings(["yes"], ["no"], ["yes", "no"]);
    expect(k.kappa).toBe(0);
    expect(k.se).toBeNull();
    expect(k.ci).toBeNull();
    expect(k.reasons.se).toMatch(/at least 2 items/);
  });

  it("both raters constant: kappa null with a reason, never NaN", () => {
    const k = cohenKappa([[10, 0], [0, 0]]);
    expect(k.kappa).toBeNull();
    expect(k.reasons.kappa).toMatch(/undefined/);
    expect(JSON.stringify(k)).not.toMatch(/NaN/);
  });
});
