import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TrustOverride, TrustThresholds } from "../../src/golden/schema/config.js";
import { describe, expect, it } from "vitest";
import { assessJudgments } from "../../src/calibration/assess.js";
import type { LabelBasis } from "../../src/calibration/basis.js";
import { gateDecision, gateInterval, thresholdsFor } from "../../src/calibration/gate.js";
import { gateOptionsOf, trustStates } from "../../src/calibration/trust.js";
import type { GroupPairing } from "../../src/calibration/pairing.js";
import { loadDraws } from "../../src/calibration/draws.js";
import { loadLabels } from "../../src/calibration/labels.js";
import { RagjudgeConfig } from "../../src/golden/schema/config.js";
import { appendLabel } from "../../src/calibration/labels.js";
import { loadRecords, type CalibrationRecord, type LoadedRecord } from "../../src/calibration/record.js";
import { InputErrors } from "../../src/golden/errors.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Judgment } from "../../src/golden/schema/items.js";
import { runCliCaptured } from "../helpers/cli.js";
import { copyFixture } from "../helpers/temp.js";

const Z95 = 1.959963984540054;
/** Figures of a record: kappa with its non-null SE; the stored interval is the 95% one unless overridden. */
const fig = (over: Partial<CalibrationRecord["figures"]> = {}) => {
  const kappa = over.kappa === undefined ? 0.8 : over.kappa;
  const kappaSe = over.kappaSe === undefined ? 0.07 : over.kappaSe;
  const kappaCi = kappa === null || kappaSe === null ? null : { lo: kappa - Z95 * kappaSe, hi: Math.min(1, kappa + Z95 * kappaSe) };
  return { n: 80, labelYes: 45, labelNo: 35, reasons: {}, level: 0.95, kappaCi, ...over, kappa, kappaSe };
};
const none = { nonRandom: 0, notHeldout: 0, ties: 0 };
const T = { minLabels: 50, minPerClass: 10, kappaLower: 0.6, minCoverage: 0.8 };
const basis = (over: Partial<LabelBasis>): LabelBasis => ({ human: 0, author: 0, import: 0, mixed: 0, sources: [], ...over });

describe("gateDecision", () => {
  it("trusts only with enough labels of each class and a lower bound at or above the threshold", () => {
    expect(gateDecision(fig(), none, T)).toEqual({ trusted: true, message: "trusted: kappa 0.80, 95% CI [0.66, 0.94], n = 80" });
    expect(gateDecision(fig({ kappa: 0.6, kappaSe: 0 }), none, T).trusted).toBe(true);
    // Thresholds a config lowered are said wherever the trusted verdict is printed; raised ones are not news.
    expect(gateDecision(fig(), none, { ...T, minLabels: 4, kappaLower: 0.2 }).message).toBe("trusted: kappa 0.80, 95% CI [0.66, 0.94], n = 80; thresholds below the defaults: minLabels 4 (default 50), kappaLower 0.2 (default 0.6)");
    expect(gateDecision(fig(), none, { ...T, minLabels: 60, minCoverage: 1 }).message).toBe("trusted: kappa 0.80, 95% CI [0.66, 0.94], n = 80");
    // Labels drawn for another judge of the rubric count (same items), but the trusted line says so.
    expect(gateDecision(fig(), none, T, undefined, { drawnFor: ["0a35b30267eb11223344"] }).message).toBe("trusted: kappa 0.80, 95% CI [0.66, 0.94], n = 80; labels drawn for another judge of this rubric (fingerprint 0a35b30267eb): they measure this one only if it was not tuned on their disagreements");
    const draw = (fingerprint: string, counts: boolean) => ({ id: fingerprint, file: "", annotator: "a", fingerprint, covers: counts, drawn: 50, labelled: counts ? 50 : 10, coverage: counts ? 1 : 0.2, counts, skipTest: null });
    const pairing = { heldout: "heldout", declared: 0, gate: [], group: { fingerprint: "mine" }, draws: [draw("mine", true), draw("old", true), draw("older", false), draw("old", true)] } as unknown as GroupPairing;
    expect(gateOptionsOf(pairing).drawnFor).toEqual(["old"]);
    // A held-out split other than the default is said too: a team counting the split it tuned prompts on is seen doing it.
    expect(gateDecision(fig(), none, T, undefined, { heldout: "dev" }).message).toBe('trusted: kappa 0.80, 95% CI [0.66, 0.94], n = 80; held-out split "dev" (trust.heldout; default "heldout")');
    // A lower bound below 0 (no better than chance) is refused in the config, for every rubric and for one.
    for (const schema of [TrustThresholds, TrustOverride]) {
      const r = schema.safeParse({ kappaLower: -1 });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.message).toBe("must be at least 0: a lower bound below 0 trusts a judge no better than chance");
      expect(schema.safeParse({ kappaLower: 0 }).success).toBe(true);
    }
    expect(gateDecision(fig({ kappa: 0.75, kappaSe: 0.08 }), none, T).reason).toBe("kappa-too-low"); // lo = 0.593
    // A bound that rounds onto the threshold is printed with the decimals that tell them apart.
    expect(gateDecision(fig({ kappa: 0.75, kappaSe: 0.0786 }), none, T).message).toMatch(/95% CI \[0\.596, 0\.904\]; lower bound must be >= 0\.60/);
    expect(gateDecision(fig({ kappa: 0.75, kappaSe: 0.08 }), none, T).message).toMatch(/95% CI \[0\.59, 0\.91\]; lower bound must be >= 0\.60/);
    expect(gateDecision(fig({ n: 49 }), none, T).reason).toBe("too-few-labels");
    expect(gateDecision(fig({ labelNo: 9 }), none, T).reason).toBe("too-few-labels");
    expect(gateDecision(fig({ kappa: null, kappaSe: null, reasons: { kappa: "both raters gave the same single label" } }), none, T).message).toMatch(/kappa undefined \(both raters/);
  });

  it("checks the 95% asymptotic bound even when the record printed another level", () => {
    // Stored at 90%: [0.80 - 1.645·0.128, ...] = [0.59, ...] would pass at 0.55; the 95% bound 0.549 must not.
    const at90 = fig({ kappa: 0.8, kappaSe: 0.128, level: 0.9, kappaCi: { lo: 0.8 - 1.6448536269514722 * 0.128, hi: 1 } });
    const d = gateDecision(at90, none, { ...T, kappaLower: 0.55 });
    expect(d.reason).toBe("kappa-too-low");
    expect(d.message).toMatch(/95% CI \[0\.549, 1\.000\]/);
    expect(gateInterval(at90)!.lo).toBeCloseTo(0.8 - Z95 * 0.128, 12);
  });

  it("names whose labels the figures rest on, never calling author labels human", () => {
    const author = gateDecision(fig(), none, T, basis({ author: 80 })).message;
    expect(author).toBe("trusted: kappa 0.80, 95% CI [0.66, 0.94], n = 80 author labels (the project's own labels, not human evidence)");
    expect(gateDecision(fig(), none, T, basis({ human: 80 })).message).toMatch(/n = 80 human labels$/);
    expect(gateDecision(fig(), none, T, basis({ import: 80, sources: ["attribution-dev"] })).message).toMatch(/n = 80 imported labels \(source attribution-dev\)$/);
    expect(gateDecision(fig(), none, T, basis({ human: 70, author: 10 })).message).toMatch(/n = 80 labels: 70 human, 10 author \(the project's own labels, not human evidence\)$/);
    expect(gateDecision(fig({ n: 20 }), none, T, basis({ author: 20 })).message).toMatch(/too few labels \(20 author labels \(the project's own labels, not human evidence\), random and in the held-out split "heldout"/);
  });

  it("says the labels are not from random frames when none count but others exist", () => {
    const d = gateDecision(fig({ n: 0, labelYes: 0, labelNo: 0, kappa: null, kappaSe: null }), { nonRandom: 30, notHeldout: 0, ties: 0 }, T);
    expect(d).toMatchObject({ trusted: false, reason: "labels-not-random" });
    expect(d.message).toMatch(/30 labels from disagreement, balanced or manual frames \(selection distorts kappa\)/);
  });

  it("says why each group of other labels does not count: frame or split, never 'other labels'", () => {
    const few = fig({ n: 13, labelYes: 8, labelNo: 5 });
    const split = gateDecision(few, { nonRandom: 0, notHeldout: 27, ties: 0 }, T);
    expect(split.message).toBe('untrusted: too few labels (13 labels, random and in the held-out split "heldout" (no split counts as dev): 8 yes / 5 no; need 50 with 10 of each; not counted: 27 random labels outside the held-out split "heldout" (labels with no split count as dev; prompts are tuned on dev))');
    const both = gateDecision(few, { nonRandom: 4, notHeldout: 1, ties: 0 }, T).message;
    expect(both).toMatch(/not counted: 4 labels from disagreement, balanced or manual frames \(selection distorts kappa\); 1 random label outside the held-out split "heldout"/);
    expect(both).not.toMatch(/other labels/);
    const onlyDev = gateDecision(fig({ n: 0, labelYes: 0, labelNo: 0, kappa: null, kappaSe: null }), { nonRandom: 0, notHeldout: 40, ties: 0 }, T);
    expect(onlyDev.reason).toBe("labels-not-random");
    expect(onlyDev.message).toBe('untrusted: no label counts (not counted: 40 random labels outside the held-out split "heldout" (labels with no split count as dev; prompts are tuned on dev)); label a random sample of the "heldout" split (ragjudge run prints the sample, review and calibrate commands for this project under Next)');
    // The held-out split's name is the config's.
    expect(gateDecision(fig({ n: 13, labelYes: 8, labelNo: 5 }), { nonRandom: 0, notHeldout: 2 }, T, undefined, { heldout: "test" }).message).toMatch(/in the held-out split "test".*2 random labels outside the held-out split "test"/);
  });

  it("never trusts a zero-width interval from a constant side, whatever the thresholds, and says why", () => {
    const loose = { minLabels: 1, minPerClass: 0, kappaLower: 0, minCoverage: 0.8 };
    // The judge said yes to all 60 items: kappa 0 by convention, CI [0, 0] by formula; 0 >= 0 used to pass.
    const judgeYes = fig({ n: 60, labelYes: 40, labelNo: 20, kappa: 0, kappaSe: 0, confusion: { tp: 40, fp: 20, fn: 0, tn: 0 } });
    const d = gateDecision(judgeYes, none, loose, basis({ human: 60 }));
    expect(d).toMatchObject({ trusted: false, reason: "kappa-uninformative" });
    expect(d.message).toBe("untrusted: kappa's interval is not informative (the judge gave only 'yes', so kappa is 0 by convention and its 95% CI [0.00, 0.00] has zero width by formula, not certainty; n = 60 human labels)");
    // Labels all yes under the default thresholds: too few labels, and the message says the interval says nothing.
    const labelsYes = fig({ n: 9, labelYes: 9, labelNo: 0, kappa: 0, kappaSe: 0, confusion: { tp: 6, fp: 0, fn: 3, tn: 0 } });
    const t = gateDecision(labelsYes, { nonRandom: 0, notHeldout: 31, ties: 0 }, T, basis({ author: 9 }));
    expect(t.reason).toBe("too-few-labels");
    expect(t.message).toMatch(/9 yes \/ 0 no; need 50 with 10 of each; labellers gave only 'yes', so kappa's interval is not informative; not counted: 31 random labels outside the held-out split "heldout"/);
    // A record without the confusion cells (older callers) keeps the old rule.
    expect(gateDecision(fig({ kappa: 0, kappaSe: 0 }), none, loose).trusted).toBe(true);
  });

  it("prints no negative zero", () => {
    const d = gateDecision(fig({ kappa: -1e-17, kappaSe: 0.1 }), none, T);
    expect(d.message).toMatch(/kappa too low \(0\.00, 95% CI \[-0\.20, 0\.20\]/);
    expect(gateDecision(fig({ kappa: 0.195, kappaSe: 0.1 }), none, T).message).toMatch(/\[0\.00, 0\.39\]/); // lo = -0.00099...
  });
});

describe("thresholdsFor", () => {
  it("overrides the defaults per rubric", () => {
    const trust = { minLabels: 50, minPerClass: 10, kappaLower: 0.6, perRubric: { faithfulness: { minLabels: 100 } } };
    expect(thresholdsFor(trust, "faithfulness")).toEqual({ minLabels: 100, minPerClass: 10, kappaLower: 0.6, minCoverage: 0.8 });
    expect(thresholdsFor(trust, "correctness")).toEqual(T);
    expect(thresholdsFor(undefined, "x")).toEqual(T);
  });

  it("keeps the config's own thresholds for the fields a rubric does not override (parsed config)", () => {
    const config = RagjudgeConfig.parse({
      golden: "g.jsonl", variants: [{ name: "v", output: "o.jsonl", chunks: "c.jsonl" }],
      trust: { minLabels: 120, minPerClass: 25, kappaLower: 0.5, perRubric: { faithfulness: { kappaLower: 0.7 } } },
    });
    expect(thresholdsFor(config.trust, "faithfulness")).toEqual({ minLabels: 120, minPerClass: 25, kappaLower: 0.7, minCoverage: 0.8 });
    expect(thresholdsFor(config.trust, "correctness")).toEqual({ minLabels: 120, minPerClass: 25, kappaLower: 0.5, minCoverage: 0.8 });
  });
});

function calibrated(): string {
  return copyFixture("calibration", "ragjudge-gate-");
}

async function calibrateQuietly(dir: string, extra: string[] = []) {
  const { code, err } = await runCliCaptured(["calibrate", "--config", join(dir, "ragjudge.config.json"), "--judgments", join(dir, "judgments.jsonl"), "--reps", "200", ...extra]);
  expect(code, err).toBe(0);
}

/** Everything the gate reads from a labels folder. */
const gateInputs = (labels: string, trust?: Parameters<typeof trustStates>[1]["trust"]) => ({ book: loadLabels(labels), draws: loadDraws(labels), records: loadRecords(labels), ...(trust ? { trust } : {}) });

describe("trust states from records", () => {
  it("uses only the exact fingerprint's record and lists records of other fingerprints", async () => {
    const dir = calibrated();
    await calibrateQuietly(dir);
    const judgments = loadJsonl(join(dir, "judgments.jsonl"), Judgment).map((r) => r.value);
    const states = trustStates(judgments, gateInputs(join(dir, "labels"), { minLabels: 50, minPerClass: 10, kappaLower: 0.45, perRubric: {} }));
    expect(states.map((s) => [s.rubric, s.fingerprint.slice(0, 4), s.trusted, s.reason ?? "trusted"])).toEqual([
      ["correctness", "base", false, "too-few-labels"],
      ["faithfulness", "f1f1", true, "trusted"],
      ["faithfulness", "f3f3", false, "no-calibration"],
    ]);
    const f3 = states[2]!;
    expect(f3.otherFingerprints.map((o) => o.fingerprint.slice(0, 4))).toEqual(["f1f1"]);
    expect(f3.message).toMatch(/1 record\(s\) exist for other fingerprints of faithfulness \(prompt or model changed\), not used/);
    expect(states[1]!.kappa).toBeCloseTo(1620 / 2390, 12);
    expect(states[1]!.record).toMatch(/faithfulness\.f1f1f1f1f1f1\.2d1ca6ac\.json$/);
  });

  it("recomputes trust: labels changed after calibration make the record stale, never trusted", async () => {
    const dir = calibrated();
    await calibrateQuietly(dir);
    appendLabel(join(dir, "labels"), { variant: "bm25", question: "q80", rubric: "faithfulness", unit: "answer", inputHash: "d".repeat(64), label: "yes", annotator: "asha", provenance: "human", frame: "manual", time: "2026-12-01T00:00:00Z" });
    const judgments = loadJsonl(join(dir, "judgments.jsonl"), Judgment).map((r) => r.value);
    const { rubrics, ruleVerdicts } = assessJudgments({ judgments, labelsDir: join(dir, "labels"), trust: { kappaLower: 0.5 }, bootstrap: { reps: 200 } });
    expect(ruleVerdicts).toBe(3);
    const f1 = rubrics.find((r) => r.fingerprint.startsWith("f1"))!;
    expect(f1.trust).toMatchObject({ trusted: false, reason: "stale" });
    expect(f1.trust.message).toMatch(/^untrusted: stale: run ragjudge calibrate \(the labels of this rubric changed since the calibration of /);
    // Labels of another rubric leave this one's record valid.
    const correctness = rubrics.find((r) => r.rubric === "correctness")!;
    expect(correctness.trust.reason).toBe("too-few-labels");
    expect(f1.passRates.raw.value).toBeCloseTo(45 / 78, 14);
    expect(f1.passRates.labelled).toBe(68);
    expect(f1.passRates.roganGladen.estimate).not.toBeNull();
    expect(f1.passRates.ppi.ci).not.toBeNull();
  });

  it("refuses a record whose file name names another fingerprint", async () => {
    const dir = calibrated();
    await calibrateQuietly(dir);
    const cal = join(dir, "labels", "calibration");
    renameSync(join(cal, "faithfulness.f1f1f1f1f1f1.2d1ca6ac.json"), join(cal, "faithfulness.f3f3f3f3f3f3.json"));
    try {
      loadRecords(join(dir, "labels"));
      throw new Error("expected an error");
    } catch (e) {
      expect(e).toBeInstanceOf(InputErrors);
      expect((e as InputErrors).problems[0]!.message).toMatch(/faithfulness\.f3f3f3f3f3f3\.json: fingerprint: record is for rubric "faithfulness" and fingerprint f1f1f1f1f1f1…, served model "m1-2026-01", so its file must be named faithfulness\.f1f1f1f1f1f1\.2d1ca6ac\.json/);
    }
  });

  it("reports a malformed record with file and field", () => {
    const dir = calibrated();
    const cal = join(dir, "labels", "calibration");
    mkdirSync(cal, { recursive: true });
    writeFileSync(join(cal, "faithfulness.f1f1f1f1f1f1.json"), JSON.stringify({ schema: "ragjudge.calibration/1", rubric: "faithfulness" }));
    expect(() => loadRecords(join(dir, "labels"))).toThrow(/faithfulness\.f1f1f1f1f1f1\.json: fingerprint: missing/);
  });

  it("treats judgments with no records as uncalibrated and never lists rule verdicts", () => {
    const j = (rubric: string, judge: "llm" | "rule", question: string) => Judgment.parse({ variant: "v", question, rubric, unit: "answer", inputHash: "0".repeat(64), fingerprint: judge === "rule" ? "rules" : "x", judge, verdict: "yes", reason: "", time: "2026-11-30T10:00:00Z" });
    const states = trustStates([j("a", "llm", "q1"), j("a", "llm", "q2"), j("citation", "rule", "q1")], { book: loadLabels(join(calibrated(), "nowhere")), draws: { dir: "", draws: [] }, records: [] as LoadedRecord[] });
    expect(states).toHaveLength(1);
    expect(states[0]).toMatchObject({ rubric: "a", trusted: false, reason: "no-calibration" });
  });
});
