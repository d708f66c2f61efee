import { describe, expect, it } from "vitest";
import { agreementFigures } from "../../src/calibration/figures.js";
import { resolveLabels, type LocatedLabel } from "../../src/calibration/labels.js";
import { pairGroup, unpairedLabels } from "../../src/calibration/pairing.js";
import { groupJudgments } from "../../src/calibration/verdicts.js";
import { humanAgreement } from "../../src/calibration/humans.js";
import type { Judgment, Label } from "../../src/golden/schema/items.js";

const H = (i: number) => i.toString(16).padStart(64, "0");
const T = "2026-01-01T00:00:00.000Z";
function j(i: number, verdict: "yes" | "no" | "error", over: Partial<Judgment> = {}): Judgment {
  return { variant: "v", question: `q${i}`, rubric: "r", unit: "answer", inputHash: H(i), fingerprint: "fp", judge: "llm", repeat: 0, verdict, reason: "", cached: false, time: T, ...over } as Judgment;
}
function l(i: number, label: "yes" | "no", over: Partial<Label> = {}): LocatedLabel {
  return { value: { variant: "v", question: `q${i}`, rubric: "r", unit: "answer", inputHash: H(i), label, annotator: "a", provenance: "human", frame: "random", time: T, ...over } as Label, file: "labels/a.jsonl", line: i };
}
const book = (labels: LocatedLabel[]) => resolveLabels("labels", [], labels);

describe("groupJudgments", () => {
  it("leaves rule verdicts out, reduces repeats by majority, and lets a repeated line win", () => {
    const { groups, counts } = groupJudgments([
      j(1, "yes"), j(1, "no", { repeat: 1 }), j(1, "no", { repeat: 2 }),
      j(2, "yes"), j(2, "no", { repeat: 1 }),
      j(3, "error"), j(3, "error", { repeat: 1, error: "timeout" }),
      j(4, "yes"), j(4, "no"),
      j(5, "no", { judge: "rule" }),
      j(1, "yes", { fingerprint: "other" }),
    ]);
    expect(counts).toEqual({ ruleVerdicts: 1, duplicates: 1 });
    expect(groups.map((g) => g.fingerprint)).toEqual(["fp", "other"]);
    const v = Object.fromEntries(groups[0]!.items.map((i) => [i.key.question, i.verdict]));
    expect(v).toEqual({ q1: "no", q2: "yes", q3: "error", q4: "no" });
    expect(groups[0]!.items.find((i) => i.key.question === "q3")!.errors).toEqual(["error", "timeout"]);
  });
});

describe("pairGroup", () => {
  it("pairs on item and input hash, and sends non-random frames to error analysis", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "no"), j(3, "yes")]);
    const p = pairGroup(groups[0]!, book([l(1, "yes"), l(2, "yes", { frame: "disagreement" }), l(3, "no", { inputHash: H(99) })]));
    expect(p.gate.map((x) => x.judged.key.question)).toEqual(["q1"]);
    expect(p.other.map((x) => [x.judged.key.question, x.excluded])).toEqual([["q2", "frame disagreement"]]);
    expect(unpairedLabels(groups, book([l(3, "no", { inputHash: H(99) }), l(7, "no"), l(1, "no", { rubric: "zz" })]))).toMatchObject({
      stale: [{ key: { question: "q3" } }], unknownItem: [{ key: { question: "q7" } }], unknownRubric: [{ key: { rubric: "zz" } }],
    });
  });

  it("keeps only the heldout split in the gate when labels carry splits", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "no"), j(3, "yes")]);
    const p = pairGroup(groups[0]!, book([l(1, "yes", { split: "heldout" }), l(2, "no", { split: "dev" }), l(3, "yes")]));
    expect(p.heldoutOnly).toBe(true);
    expect(p.gate.map((x) => x.judged.key.question)).toEqual(["q1"]);
    expect(p.other.map((x) => x.excluded).sort()).toEqual(["split (none)", "split dev"]);
  });

  it("weights a stratified random frame by inverse inclusion probability, with Kish's effective n", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "no"), j(3, "yes"), j(4, "no")]);
    const p = pairGroup(groups[0]!, book([
      l(1, "yes", { inclusionProbability: 0.5, stratum: "a" }), l(2, "no", { inclusionProbability: 0.5, stratum: "a" }),
      l(3, "no", { inclusionProbability: 0.1, stratum: "b" }), l(4, "no", { inclusionProbability: 0.1, stratum: "b" }),
    ]));
    expect(p.weighted).toBe(true);
    expect(p.gate.map((x) => x.weight)).toEqual([2, 2, 10, 10]);
    const f = agreementFigures(p.gate);
    expect(f.confusion).toMatchObject({ tp: 2, tn: 12, fp: 10, fn: 0, count: 4 });
    expect(f.nEffective).toBeCloseTo(24 ** 2 / 208, 12);
    expect(f.labelNo).toBe(3); // counts, not weights, for the per-class minimum
  });

  it("does not weight a uniform frame, and warns when only some labels have an inclusion probability", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "no")]);
    expect(pairGroup(groups[0]!, book([l(1, "yes", { inclusionProbability: 0.2 }), l(2, "no", { inclusionProbability: 0.2 })])).weighted).toBe(false);
    // Two uniform rounds of different sizes are one uniform sample: never weighted.
    expect(pairGroup(groups[0]!, book([l(1, "yes", { inclusionProbability: 0.2 }), l(2, "no", { inclusionProbability: 0.05 })])).weighted).toBe(false);
    const mixed = pairGroup(groups[0]!, book([l(1, "yes", { inclusionProbability: 0.2, stratum: "s" }), l(2, "no", { stratum: "s" })]));
    expect(mixed.weighted).toBe(false);
    expect(mixed.warnings[0]).toMatch(/1 of 2 random-frame labels have no inclusion probability/);
  });

  it("leaves tied items out until adjudicated, and counts judge errors as disagreements", () => {
    const { groups } = groupJudgments([j(1, "yes"), j(2, "error")]);
    const p = pairGroup(groups[0]!, book([l(1, "yes"), l(1, "no", { annotator: "b" }), l(2, "yes")]));
    expect(p.ties).toHaveLength(1);
    const f = agreementFigures(p.gate);
    expect(f.judgeErrors).toBe(1);
    expect(f.confusion).toMatchObject({ fn: 1, tp: 0 });
  });
});

describe("humanAgreement", () => {
  it("uses Cohen for two annotators and Fleiss for more, with Krippendorff for both", () => {
    const two = book([l(1, "yes"), l(1, "yes", { annotator: "b" }), l(2, "no"), l(2, "no", { annotator: "b" }), l(3, "yes"), l(3, "no", { annotator: "b" })]);
    const h2 = humanAgreement([...two.items.values()])!;
    expect(h2.annotators).toEqual(["a", "b"]);
    expect(h2.cohen!.kappa).toBeCloseTo(0.4, 12); // [[1,1],[0,1]]: po 2/3, pe 4/9
    expect(h2.fleiss).toBeUndefined();
    const three = book([l(1, "yes"), l(1, "yes", { annotator: "b" }), l(1, "no", { annotator: "c" }), l(2, "no"), l(2, "no", { annotator: "c" })]);
    const h3 = humanAgreement([...three.items.values()])!;
    expect(h3.fleiss!.subjects).toBe(2);
    expect(h3.krippendorff.nPairable).toBe(5);
    expect(humanAgreement([...book([l(1, "yes")]).items.values()])).toBeNull();
  });
});
