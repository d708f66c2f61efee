import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveLabels, type LocatedLabel } from "../../src/calibration/labels.js";
import { panelFigures, recommend, type PanelJudgeInput, type PanelRow } from "../../src/calibration/panel.js";
import type { Judgment, Label } from "../../src/golden/schema/items.js";
import { honest, judgeAgain, judged } from "../helpers/gate-project.js";
import { runCliCaptured } from "../helpers/cli.js";

const H = (i: number) => i.toString(16).padStart(64, "0");
const T = "2026-01-01T00:00:00.000Z";
const j = (name: string, i: number, verdict: "yes" | "no" | "error"): Judgment =>
  ({ variant: "v", question: `q${i}`, rubric: "r", unit: "answer", inputHash: H(i), fingerprint: `fp-${name}`, judge: "llm", judgeName: name, repeat: 0, verdict, reason: "", cached: false, time: T }) as Judgment;
const l = (i: number, label: "yes" | "no", annotator = "a"): LocatedLabel =>
  ({ value: { variant: "v", question: `q${i}`, rubric: "r", unit: "answer", inputHash: H(i), label, annotator, provenance: "human", frame: "random", attestation: "test draw", split: "heldout", time: T } as Label, file: `labels/${annotator}.jsonl`, line: i });

function judge(name: string, verdicts: ("yes" | "no" | "error")[], usd: number | null, extra: Partial<PanelJudgeInput> = {}): PanelJudgeInput {
  const judgments = verdicts.map((v, i) => j(name, i, v));
  return { name, kind: "openai", judgments, byRubric: new Map([["r", { verdicts: verdicts.length, errors: verdicts.filter((v) => v === "error").length, usd, latenciesMs: [30, 10, 20] }]]), ...extra };
}

const row = (over: Partial<PanelRow>): PanelRow => ({ judge: "x", kind: "openai", fingerprint: "f", n: 60, kappa: 0.8, ci: { lo: 0.7, hi: 0.9 }, tpr: 0.9, tnr: 0.9, trusted: true, trust: "", verdicts: 100, errors: 0, errorRate: 0, usdPer1000: 1, medianLatencyMs: 10, ...over });

describe("the panel's recommendation", () => {
  it("names the cheapest trusted judge, an unpriced one last, ties to the higher kappa", () => {
    const r = recommend([row({ judge: "big", usdPer1000: 4 }), row({ judge: "small", usdPer1000: 0.21, kappa: 0.78, ci: { lo: 0.66, hi: 0.9 } }), row({ judge: "free", usdPer1000: null }), row({ judge: "bad", trusted: false, usdPer1000: 0 })]);
    expect(r).toEqual({ judge: "small", line: "cheapest trusted judge: small (kappa 0.78 [0.66, 0.90], $0.21 per 1,000)" });
    expect(recommend([row({ judge: "a", usdPer1000: 1, kappa: 0.7 }), row({ judge: "b", usdPer1000: 1, kappa: 0.9 })]).judge).toBe("b");
    expect(recommend([row({ judge: "a", usdPer1000: null }), row({ judge: "b", usdPer1000: null, kappa: 0.9 })]).line).toMatch(/^cheapest trusted judge: b \(.*cost unknown/);
  });

  it("with none trusted names the closest (highest lower bound), or says no label pairs", () => {
    const r = recommend([row({ judge: "a", trusted: false, kappa: 0.9, ci: { lo: 0.2, hi: 1 }, n: 10 }), row({ judge: "b", trusted: false, kappa: 0.7, ci: { lo: 0.5, hi: 0.9 }, n: 40 })]);
    expect(r.line).toBe("no judge is trusted; closest: b (kappa 0.70 [0.50, 0.90], 40 labels, $1.00 per 1,000)");
    expect(recommend([row({ trusted: false, kappa: null, ci: null })]).line).toMatch(/^no judge is trusted; closest: none yet/);
  });
});

describe("panelFigures", () => {
  const truth: ("yes" | "no")[] = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? "no" : "yes"));
  const labels = truth.map((v, i) => l(i, v));
  // Two people labelled the first ten alike: the human-human figure sits beside the judges'.
  const second = truth.slice(0, 10).map((v, i) => l(i, v, "b"));
  const book = resolveLabels("labels", [], [...labels, ...second]);
  const good = judge("good", truth, 0.4);
  const yes = judge("yes", truth.map(() => "yes"), 0.01);
  const noisy = judge("noisy", truth.map((v, i) => (i % 5 === 0 ? (v === "yes" ? "no" : "yes") : v)), 0.05);
  const vote = judge("vote", truth, 0.46, { members: ["good", "yes", "noisy"], kind: "majority" });
  // the labels above are attested imports (a shortcut for drawn ones): this config counts them (trust.attested)
  const [p] = panelFigures({ judges: [good, yes, noisy, vote], book, trust: { minLabels: 20, minPerClass: 5, kappaLower: 0.5, minCoverage: 0.8, heldout: "heldout", perRubric: {}, attested: true } });

  it("calibrates every judge on the same labels, with cost per 1,000 and median latency", () => {
    const by = new Map(p!.rows.map((r) => [r.judge, r]));
    expect(by.get("good")).toMatchObject({ kappa: 1, tpr: 1, tnr: 1, n: 40, usdPer1000: 10, medianLatencyMs: 20, errorRate: 0 });
    expect(by.get("yes")).toMatchObject({ kappa: 0, tpr: 1, tnr: 0 });
    expect(by.get("noisy")!.kappa!).toBeLessThan(1);
  });

  it("measures agreement between the judges (the combined one out of alpha) beside the people's, and lists the splits", () => {
    expect(p!.pairs).toHaveLength(6);
    expect(p!.pairs.find((x) => x.a === "good" && x.b === "yes")).toMatchObject({ n: 40, kappa: 0 });
    expect(p!.pairs.find((x) => x.a === "good" && x.b === "vote")).toMatchObject({ kappa: 1, agreement: 1 });
    expect(p!.alphaUnits).toBe(40);
    expect(p!.humans).toMatchObject({ overlap: 10, alpha: 1 });
    // Every item where good says no (yes says yes) or noisy flips splits.
    const expected = truth.filter((v, i) => v === "no" || i % 5 === 0).length;
    expect(p!.splits).toHaveLength(expected);
    expect(p!.splits[0]!.verdicts).toHaveProperty("good");
    expect(p!.splits[0]!.verdicts).not.toHaveProperty("vote");
  });
});

describe("the panel's trust is the gate's", () => {
  it("never calls a panel judge trusted without a current calibration record of it, as the rubric's own line does not", async () => {
    const p = await judged({ minLabels: 20, minPerClass: 3 }, (c) => {
      c.rubrics = ["correctness"];
      c.judges = [{ name: "lexical", kind: "baseline" }, { name: "always-yes", kind: "constant", verdict: "yes" }];
    });
    await honest(p, "correctness");
    const panelJudgments = join(p.dir, "panel-judgments.jsonl");
    // Labels that agree with the judge, and no record: the rubric is untrusted, and so is every judge of the panel.
    const before = await judgeAgain(p);
    expect(before.code, before.err).toBe(0);
    expect(before.out).toMatch(/correctness {2}\[[^\n]*\n {2}UNTRUSTED: no calibration record for this judge/);
    expect(before.out).not.toContain("cheapest trusted judge");
    expect(before.out).toMatch(/^ *lexical +1\.00 \[0\.\d\d, 1\.00\] +36 +1\.00 +1\.00 +untrusted /m);
    // the advice is the command that records the panel's judges, with the project and the panel's verdicts
    expect(before.out).toContain(`=> no judge is trusted; closest: lexical (kappa 1.00 [0.81, 1.00], 36 labels, $0.00 per 1,000; its labels pass the gate, but ragjudge calibrate has no current record of this judge: run ragjudge calibrate --config ${p.config} --judgments ${panelJudgments})`);
    // Calibrated over the panel's verdicts, as printed, the judge the labels agree with is trusted, and only it.
    const printed = /no current record of this judge: run ragjudge (calibrate [^)]*)\)/.exec(before.out)![1]!.split(" ");
    const typed = await runCliCaptured(printed);
    expect(typed.code, typed.err).toBe(0);
    const after = await judgeAgain(p);
    expect(after.out).toMatch(/^ *lexical +1\.00 \[0\.\d\d, 1\.00\] +36 +1\.00 +1\.00 +trusted /m);
    expect(after.out).toContain("=> cheapest trusted judge: lexical (kappa 1.00 [0.81, 1.00], $0.00 per 1,000)");
    // A label flipped since makes the record stale: the panel says so too, as the rubric's line does.
    const mine = readFileSync(join(p.labels, "test-author.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Label);
    appendFileSync(join(p.labels, "test-author.jsonl"), JSON.stringify({ ...mine[0]!, label: mine[0]!.label === "yes" ? "no" : "yes", time: new Date(Date.now() + 60_000).toISOString() }) + "\n");
    const stale = await judgeAgain(p);
    expect(stale.out).toMatch(/correctness {2}\[[^\n]*\n {2}UNTRUSTED: stale/);
    expect(stale.out).not.toContain("cheapest trusted judge");
  }, 60_000);
});
