/**
 * The attribution-dev scripts (scripts/attribution/) on invented rows: the
 * real data is third-party and never enters the repository or its tests.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELDOUT_SPLIT } from "../../../src/calibration/pairing.js";
import { hashJson } from "../../../src/golden/hash.js";
import { Label } from "../../../src/golden/schema/items.js";
import { ANNOTATOR, VARIANT, convert } from "../../../scripts/attribution/convert.js";
import type { AttributionRow } from "../../../scripts/attribution/data.js";
import { agreement, chooseThreshold, type SweepRow } from "../../../scripts/attribution/measure.js";
import { splitHalves } from "../../../scripts/attribution/split.js";
import { ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/temp.js";
import { richRows } from "./rows.js";

const TIME = "2026-01-01T00:00:00.000Z";

/** Invented rows in AttributionBench's shape: even rows supported, odd rows not; every third row has two references. */
function rows(n: number): AttributionRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `Invented_${i}`,
    question: ` How many days of leave does plan ${i} give? `,
    claim: i % 2 === 0 ? `Plan ${i} gives 12 days of paid leave [1].` : `Plan ${i} gives 40 days of unpaid sabbatical [1].`,
    references: i % 3 === 0
      ? [`[1] https://example.org/${i}\n\nPlan ${i} gives 12 days of paid leave.`, "[2] https://example.org/other\n\nUnrelated text."]
      : [`Plan ${i} gives 12 days of paid leave every year.`],
    attribution_label: i % 2 === 0 ? "attributable" : "not attributable",
    src_dataset: i % 4 === 0 ? "SetA" : "SetB",
  }));
}

describe("splitHalves", () => {
  const items = Array.from({ length: 21 }, (_, i) => ({ id: `x${i}`, label: i < 11 ? "yes" : "no" }));

  it("is stratified by label: half of each label tunes (rounded down)", () => {
    const h = splitHalves(items, 7);
    const tune = (label: string) => items.filter((i) => i.label === label && h.get(i.id) === "tune").length;
    expect(tune("yes")).toBe(5);
    expect(tune("no")).toBe(5);
    expect(h.size).toBe(21);
  });

  it("names the evaluation half with the split `ragjudge calibrate` gates on", () => {
    expect(new Set(splitHalves(items, 7).values())).toEqual(new Set(["tune", HELDOUT_SPLIT]));
  });

  it("is seeded: the same seed gives the same split, another seed another", () => {
    expect([...splitHalves(items, 7)]).toEqual([...splitHalves(items, 7)]);
    expect([...splitHalves(items, 7)]).not.toEqual([...splitHalves(items, 8)]);
  });
});

describe("convert", () => {
  const c = convert(rows(12), TIME);

  it("writes one golden question, output line and faithfulness item per claim, one chunk per reference", () => {
    expect(c.golden).toHaveLength(12);
    expect(c.outputs).toHaveLength(12);
    expect(c.chunks).toHaveLength(12 + 4);
    expect(c.items.filter((i) => i.key.rubric === "faithfulness")).toHaveLength(12);
    expect(c.golden[0]).toMatchObject({ id: "Invented_0", question: "How many days of leave does plan 0 give?", answerable: true, relevant: ["Invented_0#1", "Invented_0#2"] });
    expect(c.outputs[0]).toMatchObject({ answer: "Plan 0 gives 12 days of paid leave.", context: ["Invented_0#1", "Invented_0#2"], citations: [{ sentence: "Plan 0 gives 12 days of paid leave.", chunks: ["Invented_0#1", "Invented_0#2"] }] });
  });

  it("adds citation-accuracy items for claims with a single reference only", () => {
    const ca = c.items.filter((i) => i.key.rubric === "citation-accuracy");
    expect(ca).toHaveLength(8);
    expect(ca[0]!.key).toEqual({ variant: VARIANT, question: "Invented_1", rubric: "citation-accuracy", unit: "s1:Invented_1#1" });
    expect(ca[0]!.evidence).toEqual({ question: "How many days of leave does plan 1 give?", sentence: "Plan 1 gives 40 days of unpaid sabbatical.", cited: { id: "Invented_1#1", text: "Plan 1 gives 12 days of paid leave every year." } });
  });

  it("writes valid imported labels joined to their items by key and input hash", () => {
    expect(c.labels).toHaveLength(c.items.length);
    c.labels.forEach((l, i) => {
      expect(Label.safeParse(l).success).toBe(true);
      const item = c.items[i]!;
      expect(l).toMatchObject({ ...item.key, inputHash: hashJson(item.evidence), label: item.label, annotator: ANNOTATOR, provenance: "import", frame: "random", inclusionProbability: 1, split: item.half, time: TIME });
      expect(l.source).toContain(`row ${item.key.question}`);
      expect(l.source).toContain("AttributionBench");
    });
    expect(c.labels.filter((l) => l.label === "yes" && l.rubric === "faithfulness")).toHaveLength(6);
  });

  it("is deterministic", () => expect(convert(rows(12), TIME)).toEqual(c));
});

describe("measure", () => {
  it("agreement reproduces a published kappa and its standard error (statpsych ci.kappa, n = 105)", () => {
    // Judge x people table [[31, 12], [4, 58]]: tp 31, fp 12, fn 4, tn 58.
    const mk = (n: number, verdict: "yes" | "no", label: "yes" | "no") => Array.from({ length: n }, () => ({ verdict, label }));
    const a = agreement([...mk(31, "yes", "yes"), ...mk(12, "yes", "no"), ...mk(4, "no", "yes"), ...mk(58, "no", "no")], 1);
    expect(a.accuracy).toBeCloseTo(89 / 105, 12);
    expect(a.tpr).toBeCloseTo(31 / 35, 12);
    expect(a.tnr).toBeCloseTo(58 / 70, 12);
    expect(a.kappa.kappa).toBeCloseTo(0.6756756757, 9);
    expect(a.kappa.se).toBeCloseTo(0.0734476073, 9);
    expect(a.kappa.ci!.lo).toBeCloseTo(0.5317210105, 7);
    expect(a.bootstrap.ci!.lo).toBeLessThan(a.kappa.kappa!);
  });

  it("chooseThreshold: highest kappa, then the smaller TPR-TNR gap, then the lower threshold", () => {
    const r = (threshold: number, kappa: number | null, tpr: number, tnr: number): SweepRow => ({ threshold, kappa, tpr, tnr, accuracy: 0 });
    expect(chooseThreshold([r(0.5, 0.3, 0.8, 0.5), r(0.6, 0.44, 0.72, 0.72), r(0.7, 0.44, 0.59, 0.85), r(0.8, null, 1, 0)])!.threshold).toBe(0.6);
    expect(chooseThreshold([r(0.7, 0.44, 0.6, 0.8), r(0.6, 0.44, 0.8, 0.6)])!.threshold).toBe(0.6);
    expect(chooseThreshold([r(0.5, 0.1, 0.5, 0.5), r(0.6, 0.2, 0.9, 0.1)])!.threshold).toBe(0.6);
    expect(chooseThreshold([r(0.5, null, 0, 0)])).toBeUndefined();
  });
});

describe("npm run attribution:baseline", () => {
  const dir = tempDir("ragjudge-attr-test-");
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/attribution/baseline.ts", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...env } });

  it("skips with one line when the data is absent", () => {
    const r = run([], { RAGJUDGE_ATTRIBUTION_DATA: join(dir, "absent.jsonl") });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toMatch(/skipped: .*absent/);
  });

  it("measures the learned model, the previous rule and the anchor side by side, and removes its temporary folder", () => {
    const file = join(dir, "invented.jsonl");
    writeFileSync(file, richRows(40).map((x) => JSON.stringify(x)).join("\n") + "\n");
    const tmp = mkdtempSync(join(dir, "tmp-"));
    const r = run(["--data", file, "--sweep"], { TMPDIR: tmp });
    expect(r.stderr).toBe("");
    expect(readdirSync(tmp).filter((f) => f.startsWith("ragjudge-attribution-"))).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/nested 10-fold cross-validation, folds by question/);
    for (const rubric of ["faithfulness", "citation-accuracy"]) {
      const section = r.stdout.slice(r.stdout.indexOf(`${rubric} (`));
      expect(section).toMatch(/judge +source +n +kappa \[95% CI\] +accuracy +macro-F1 +TPR +TNR/);
      for (const judge of ["learned support model", "previous rule", "token-overlap anchor"]) {
        expect(section).toMatch(new RegExp(`${judge} +all +\\d+ +(-?\\d\\.\\d{3} \\[|undefined)`));
      }
      expect(section).toMatch(/^ +SetA +\d+ /m);
      expect(section).toMatch(/^ +SetB +\d+ /m);
      expect(section).toMatch(/learned minus previous rule: kappa [+-]\d\.\d{3}, paired bootstrap 95% CI/);
    }
    // Supported claims repeat their reference, unsupported ones change its words: the rule is perfect here.
    expect(r.stdout).toMatch(/previous rule +all +40 +1\.000 \[1\.000, 1\.000\] +1\.000 +1\.000/);
    expect(r.stdout).toMatch(/Sweep of the previous rule's supportCoverage on the tuning half only/);
    expect(r.stdout).not.toMatch(/converted files kept/);
  });

  it("the converter refuses to write third-party data into the checkout", () => {
    const file = join(dir, "invented2.jsonl");
    writeFileSync(file, rows(4).map((x) => JSON.stringify(x)).join("\n") + "\n");
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/attribution/convert.ts", "--data", file, "--out", "tmp-attribution"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--out: is inside the ragjudge checkout/);
    expect(existsSync(join(ROOT, "tmp-attribution"))).toBe(false);
    const out = join(dir, "converted");
    const ok = spawnSync(process.execPath, ["--import", "tsx", "scripts/attribution/convert.ts", "--data", file, "--out", out], { cwd: ROOT, encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/converted 4 claims \(2 tuning, 2 evaluation\) and 6 labels into/);
    expect(readdirSync(out).sort()).toEqual(["attributionbench.output.jsonl", "chunks.jsonl", "golden.jsonl", "items.jsonl", "labels", "ragjudge.config.json"]);
  });

  it("a missing --data file or a malformed row is one error line and exit 2", () => {
    const missing = run(["--data", join(dir, "nope.jsonl")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe(`ragjudge: error: ${join(dir, "nope.jsonl")}: file not found`);
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, JSON.stringify(rows(1)[0]) + "\n" + JSON.stringify({ ...rows(2)[1], attribution_label: "maybe" }) + "\n");
    const r = run(["--data", bad]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`${bad}:2: attribution_label:`);
  });
});
