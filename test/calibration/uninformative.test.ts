import { describe, expect, it } from "vitest";
import { fixed, fixedOrNa, interval, pValue } from "../../src/calibration/format.js";
import { agreementFigures } from "../../src/calibration/figures.js";
import type { PairedItem } from "../../src/calibration/pairing.js";
import { cohenKappa } from "../../src/calibration/stats/index.js";
import { explainUninformative, shortUninformative, uninformativeInterval } from "../../src/calibration/uninformative.js";
import { kappaCell } from "../../src/calibration/render.js";

/** Paired items with the given (judge, label) pairs, enough for agreementFigures. */
function paired(pairs: ["yes" | "no" | "error", "yes" | "no"][]): PairedItem[] {
  return pairs.map(([verdict, label], i) => ({
    judged: { key: { variant: "v", question: `q${i}`, rubric: "r", unit: "answer" }, inputHash: "h", fingerprint: "f", judge: "llm", verdict, errors: [], repeats: 1, reason: "" },
    labelled: { key: { variant: "v", question: `q${i}`, rubric: "r", unit: "answer" }, inputHash: "h", byAnnotator: [], label, frames: ["random"] },
    label,
    weight: 1,
  }) as unknown as PairedItem);
}
const rep = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

describe("number formatting", () => {
  it("prints 0 for a value that rounds to zero, keeping real negatives", () => {
    expect(fixed(-1e-17)).toBe("0.00");
    expect(fixed(-0)).toBe("0.00");
    expect(fixed(-0.004)).toBe("0.00");
    expect(fixed(-0.006)).toBe("-0.01");
    expect(fixed(-0.0004, 3)).toBe("0.000");
    expect(fixed(-0.04, 1)).toBe("0.0");
    expect(fixed(-3e-5, 0)).toBe("0");
    expect(fixedOrNa(null)).toBe("n/a");
    expect(interval({ lo: -5.551115123125783e-17, hi: 5.551115123125783e-17 })).toBe("[0.00, 0.00]");
    expect(interval(null)).toBe("n/a");
    expect(pValue(0.0241)).toBe("0.024");
    expect(pValue(1e-13)).toBe("< 1e-12");
  });
});

describe("one constant rater", () => {
  it("gives exactly kappa 0, se 0 and no test, with the constant rater named, even where rounding used to leave z = 0, p = 1", () => {
    // Rows judge, columns labels: labels all yes, judge 6 yes / 3 no (citation-accuracy on the example).
    const k = cohenKappa([[6, 0], [3, 0]]);
    expect(Object.is(k.kappa, 0)).toBe(true);
    expect(k.se).toBe(0);
    expect(k.se0).toBe(0);
    expect(k.ci).toEqual({ lo: 0, hi: 0 });
    expect(k.z).toBeNull();
    expect(k.p).toBeNull();
    expect(k.constant).toEqual({ rater1: null, rater2: 0 });
    // Judge all no (row 1), labels mixed: kappa = 0 exactly, not -1e-17.
    const j = cohenKappa([[0, 0], [1, 4]]);
    expect(Object.is(j.kappa, 0)).toBe(true);
    expect(j.constant).toEqual({ rater1: 1, rater2: null });
    expect(cohenKappa([[20, 5], [10, 15]]).constant).toEqual({ rater1: null, rater2: null });
  });

  it("says which side was constant and with what, and nothing when kappa is undefined or both sides vary", () => {
    expect(uninformativeInterval({ tp: 6, fn: 3, fp: 0, tn: 0 })).toEqual({ cause: "labels-constant", label: "yes", reason: "labellers gave only 'yes'" });
    expect(uninformativeInterval({ tp: 0, fn: 0, fp: 2, tn: 3 })).toEqual({ cause: "labels-constant", label: "no", reason: "labellers gave only 'no'" });
    expect(uninformativeInterval({ tp: 5, fn: 0, fp: 3, tn: 0 })).toEqual({ cause: "judge-constant", judge: "yes", reason: "the judge gave only 'yes'" });
    const both = uninformativeInterval({ tp: 0, fn: 2, fp: 0, tn: 0 })!;
    expect(both).toEqual({ cause: "both-constant", label: "yes", judge: "no", reason: "labellers gave only 'yes' and the judge only 'no'" });
    expect(shortUninformative(both)).toBe("labels all 'yes', judge all 'no'");
    expect(explainUninformative(both)).toMatch(/kappa is 0 by convention and its interval has zero width by formula \(not certainty\)$/);
    expect(uninformativeInterval({ tp: 4, fn: 0, fp: 0, tn: 0 })).toBeNull(); // kappa undefined, reported as such
    expect(uninformativeInterval({ tp: 4, fn: 1, fp: 1, tn: 4 })).toBeNull();
    expect(uninformativeInterval({ tp: 0, fn: 0, fp: 0, tn: 0 })).toBeNull();
  });

  it("is flagged on the agreement figures (judge errors count as the opposite of the label)", () => {
    const f = agreementFigures(paired([...rep(6, ["yes", "yes"] as ["yes", "yes"]), ...rep(3, ["no", "yes"] as ["no", "yes"])]), { bootstrap: { seed: 1, reps: 200 } });
    expect(f.kappaCiUninformative).toMatchObject({ cause: "labels-constant", label: "yes" });
    expect(f.kappa.z).toBeNull();
    expect(f.bootstrap!.ci).toEqual({ lo: 0, hi: 0 }); // the bootstrap is no help: every resample keeps labels all yes
    // An error verdict on a "yes" item counts as "no": the judge is no longer constant.
    const withError = agreementFigures(paired([...rep(5, ["yes", "yes"] as ["yes", "yes"]), ["error", "yes"], ...rep(4, ["yes", "no"] as ["yes", "no"])]));
    expect(withError.kappaCiUninformative).toBeNull();
    expect(agreementFigures(paired(rep(5, ["yes", "no"] as ["yes", "no"]))).kappaCiUninformative).toMatchObject({ cause: "both-constant" });
  });
});

describe("kappaCell", () => {
  it("never leaves an undefined kappa a bare n/a: it says why, as the by-kind and by-tag rows do for an uninformative interval", () => {
    expect(kappaCell(agreementFigures(paired(rep(5, ["yes", "yes"]))))).toBe("n/a (labels and verdicts all 'yes')");
    expect(kappaCell(agreementFigures(paired(rep(4, ["no", "no"]))))).toBe("n/a (labels and verdicts all 'no')");
    expect(kappaCell(agreementFigures([]))).toBe("n/a (no labels)");
    expect(kappaCell(agreementFigures(paired([...rep(4, ["no", "yes"] as ["no", "yes"]), ["yes", "yes"]])))).toMatch(/^0\.00, CI not informative \(labels all 'yes'\)$/);
  });
});
