/**
 * A calibration's confidence figures: on the gate's items (weighted as the
 * gate weights them), the threshold chosen on dev items only (never a
 * held-out one, whatever its frame), items without a P(yes) or with an
 * error verdict left out, and no figures for a judge that gives no P(yes).
 */
import { describe, expect, it } from "vitest";
import { confidenceFigures, devItems } from "../../src/calibration/confidence.js";
import type { PairedItem } from "../../src/calibration/pairing.js";
import { bestThreshold, rocAuc } from "../../src/calibration/stats/index.js";

let q = 0;
function item(label: "yes" | "no", pYes: number | undefined, o: { split?: string; weight?: number; verdict?: "yes" | "no" | "error" } = {}): PairedItem {
  const key = { variant: "v", question: `q${q++}`, rubric: "faithfulness", unit: "answer" };
  return {
    judged: { key, inputHash: "a".repeat(64), fingerprint: "f", judge: "llm", verdict: o.verdict ?? (pYes !== undefined && pYes >= 0.5 ? "yes" : "no"), errors: [], repeats: 1, reason: "r", ...(pYes !== undefined ? { pYes } : {}) },
    labelled: {} as PairedItem["labelled"],
    label,
    weight: o.weight ?? 1,
    ...(o.split !== undefined ? { split: o.split } : {}),
  };
}

const gate = [item("yes", 0.9), item("yes", 0.7), item("no", 0.62), item("no", 0.2), item("yes", 0.4), item("no", undefined), item("yes", 0.8, { verdict: "error" })];
const dev = [item("yes", 0.65, { split: "dev" }), item("no", 0.55, { split: "dev" }), item("yes", 0.8), item("no", 0.1, { split: "dev" })];

describe("confidenceFigures", () => {
  it("measures the gate items with a P(yes) (errors left out) and chooses the threshold on dev items", () => {
    const c = confidenceFigures(gate, dev, false)!;
    expect({ n: c.n, of: c.of }).toEqual({ n: 5, of: 7 });
    expect(c.auc.auc).toBe(rocAuc([0.9, 0.7, 0.62, 0.2, 0.4].map((score, i) => ({ score, label: (["yes", "yes", "no", "no", "yes"] as const)[i]! }))).auc);
    expect(c.threshold.dev).toEqual(bestThreshold(dev.map((p) => ({ score: p.judged.pYes!, label: p.label }))));
    expect(c.threshold.dev.threshold).toBeCloseTo(0.6, 12);
    // Applied to the gate: 0.9, 0.7, 0.62 -> yes (0.62 labelled no), 0.4, 0.2 -> no (0.4 labelled yes).
    expect(c.threshold.kappa!.kappa).toBeCloseTo(1 / 6, 12);
  });

  it("never lets held-out labels choose the threshold: changing them leaves the choice as it was", () => {
    const a = confidenceFigures(gate, dev, false)!;
    const flipped = gate.map((p) => ({ ...p, label: p.label === "yes" ? ("no" as const) : ("yes" as const) }));
    const b = confidenceFigures(flipped, dev, false)!;
    expect(b.threshold.dev).toEqual(a.threshold.dev);
    expect(b.threshold.kappa!.kappa).not.toBe(a.threshold.kappa!.kappa);
    expect(confidenceFigures(gate, [], false)!.threshold).toMatchObject({ dev: { threshold: null, reason: "no dev labels with a P(yes)" }, kappa: null });
  });

  it("devItems keeps labelled items outside the held-out split only, of any frame", () => {
    const other = [item("yes", 0.5, { split: "heldout" }), item("no", 0.5, { split: "dev" }), item("yes", 0.5)];
    expect(devItems(other, "heldout")).toEqual([other[1], other[2]]);
  });

  it("weights the gate's items when the gate is weighted, and is null for a judge without P(yes)", () => {
    const w = [item("yes", 0.9, { weight: 4 }), item("no", 0.95), item("no", 0.1)];
    expect(confidenceFigures(w, [], true)!.auc.auc).toBeCloseTo((4 * 1 + 4 * 0) / (4 * 2), 12);
    expect(confidenceFigures(w, [], false)!.auc.auc).toBeCloseTo(0.5, 12);
    expect(confidenceFigures([item("yes", undefined)], [item("no", undefined, { split: "dev" })], false)).toBeNull();
  });
});
