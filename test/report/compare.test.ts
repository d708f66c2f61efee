import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mcnemarCounts } from "../../src/calibration/stats/index.js";
import { InputError } from "../../src/golden/errors.js";
import { answerScore, compareSides, metricLabel } from "../../src/report/compare/compare.js";
import { loadEvaluation, parseSide, variantPairs } from "../../src/report/compare/load.js";
import { renderComparisons } from "../../src/report/compare/render.js";
import { runEvaluation } from "../../src/report/evaluation.js";
import type { ReportJson } from "../../src/report/schema.js";
import { runCliCaptured } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { exampleCopy } from "./helpers.js";

let base: ReportJson;
let evalDir: string;
const work = tempDir("ragjudge-compare-");

/** Writes a (possibly edited) copy of the example's report.json as an evaluation folder. */
function evaluation(name: string, edit: (r: ReportJson) => void = () => {}): string {
  const r = structuredClone(base);
  r.folder = name;
  edit(r);
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "report.json"), JSON.stringify(r));
  return dir;
}

const side = (dir: string, variant: string) => {
  const ev = loadEvaluation(dir);
  return { evaluation: ev, variant: ev.report.variants.find((v) => v.name === variant)! };
};

beforeAll(async () => {
  const copy = exampleCopy();
  const r = await runEvaluation({ config: copy.config });
  evalDir = r.folder;
  base = JSON.parse(readFileSync(join(r.folder, "report.json"), "utf8"));
});

describe("compareSides", () => {
  it("finds no difference between an evaluation and itself", () => {
    const a = evaluation("same-a");
    const b = evaluation("same-b");
    const c = compareSides(side(a, "hybrid-rerank"), side(b, "hybrid-rerank"), { seed: 1, reps: 500 });
    expect(c.headline.difference).toBe(0);
    expect(c.headline.direction).toBe("unclear");
    expect(c.regressions).toEqual([]);
    expect(c.changed).toEqual([]);
    expect(c.verdict).toMatch(/^verdict: RR hybrid-rerank - hybrid-rerank = \+0\.000 .* the interval includes zero .*; no kind or tag group regressed\.$/);
  });

  it("flags a group only when its paired interval lies below zero, with n shown", () => {
    const a = evaluation("groups-a");
    const b = evaluation("groups-b", (r) => {
      const v = r.variants.find((x) => x.name === "hybrid-rerank")!;
      const kind = new Map(r.questions.map((q) => [q.id, q.kind]));
      let lexicalDropped = false;
      for (const q of v.retrieval.perQuery) {
        // Every factual question loses rank: a real regression of the group.
        if (kind.get(q.id) === "factual") q.values["RR"] = q.values["RR"]! * 0.25;
        // One lexical question falls: noise, not a group regression.
        if (kind.get(q.id) === "lexical" && !lexicalDropped && q.values["RR"]! > 0.5) {
          q.values["RR"] = 0;
          lexicalDropped = true;
        }
      }
      expect(lexicalDropped).toBe(true);
    });
    const c = compareSides(side(a, "hybrid-rerank"), side(b, "hybrid-rerank"), { seed: 7, reps: 1000 });
    const factual = c.groups.find((g) => g.measure === "RR" && g.by === "kind" && g.group === "factual")!;
    const lexical = c.groups.find((g) => g.measure === "RR" && g.by === "kind" && g.group === "lexical")!;
    expect(factual.paired.n).toBe(16);
    expect(factual.paired.ci!.hi).toBeLessThan(0);
    expect(factual.regressed).toBe(true);
    expect(lexical.paired.difference).toBeLessThan(0);
    expect(lexical.paired.ci!.lo).toBeLessThan(0);
    expect(lexical.paired.ci!.hi).toBeGreaterThanOrEqual(0);
    expect(lexical.regressed).toBe(false);
    expect(c.regressions.some((r) => r.startsWith("kind factual: RR") && r.includes("(n = 16)"))).toBe(true);
    expect(c.regressions.some((r) => r.startsWith("kind lexical"))).toBe(false);
    expect(c.verdict).toContain("regressed groups: kind factual: RR");
    // a tag with fewer questions than minGroup gets no interval and is never flagged
    const small = c.groups.filter((g) => g.paired.n < 5);
    expect(small.length).toBeGreaterThan(0);
    for (const g of small) {
      expect(g.paired.ci).toBeNull();
      expect(g.regressed).toBe(false);
    }
  });

  it("refuses judge figures of different fingerprints but still compares retrieval", () => {
    const a = evaluation("fp-a");
    const b = evaluation("fp-b", (r) => {
      const rub = r.rubrics.find((x) => x.rubric === "correctness")!;
      rub.fingerprint = "f".repeat(64);
    });
    const c = compareSides(side(a, "bm25-small"), side(b, "hybrid-rerank"), { seed: 1, reps: 300 });
    const corr = c.rubrics.find((r) => r.measure === "correctness")!;
    expect(corr.refused).toMatch(/judged by different judges \(fingerprint [0-9a-f]{12} in A, ffffffffffff in B/);
    expect(corr.paired).toBeNull();
    expect(c.answers.refused).toMatch(/correctness was judged by different judges/);
    expect(c.rubrics.find((r) => r.measure === "faithfulness")!.refused).toBeNull();
    expect(c.headline.n).toBe(48);
    expect(c.headline.difference).toBeCloseTo(base.variants[1]!.retrieval.overall.values["RR"]! - base.variants[0]!.retrieval.overall.values["RR"]!, 12);
    expect(c.groups.some((g) => g.measure === "correctness" || g.measure === "answer")).toBe(false);
    const text = renderComparisons([c], "table");
    expect(text).toContain("refused: correctness was judged by different judges");
  });

  it("words overall and group regressions apart, overall first, and names every column of its tables", () => {
    const c = compareSides(side(evalDir, "hybrid-rerank"), side(evalDir, "bm25-small"), { seed: 3, reps: 300 });
    const others = c.regressions.filter((r) => r.startsWith("overall ") && !r.startsWith(`overall ${c.metric} `));
    expect(others.length).toBeGreaterThan(0);
    expect(c.verdict).toContain(`; other measures regressed over all questions: ${others.map((r) => r.replace(/^overall /, "")).join("; ")}; `);
    expect(c.verdict).not.toContain("also regressed");
    expect(c.verdict).toMatch(/; (regressed groups: .*|no kind or tag group regressed)\.$/);
    // the column between the interval and McNemar's test says which way the interval points
    const text = renderComparisons([c], "table");
    expect(text).toMatch(/95% CI +direction +McNemar/);
    expect(text).toMatch(/B - A \[95% CI\] +direction +McNemar/);
  });

  it("lists changed questions worst first", () => {
    const c = compareSides(side(evalDir, "bm25-small"), side(evalDir, "hybrid-rerank"), { seed: 3, reps: 300 });
    expect(c.changed.length).toBeGreaterThan(3);
    for (let i = 1; i < c.changed.length; i++) {
      const p = c.changed[i - 1]!;
      const q = c.changed[i]!;
      expect(p.answerChange <= q.answerChange).toBe(true);
      if (p.answerChange === q.answerChange) expect((p.metricDelta ?? 0) <= (q.metricDelta ?? 0)).toBe(true);
    }
    const first = c.changed[0]!;
    expect(first.answerChange).toBe(-1);
    expect(answerScore(first.outcomeA!)).toBe(1);
    expect(answerScore(first.outcomeB!)).toBe(0);
    for (const q of c.changed) expect(q.outcomeA !== q.outcomeB || (q.metricDelta !== null && q.metricDelta !== 0)).toBe(true);
    // the Markdown table reads as plain text too: an arrow, not an escaped "-&gt;"
    const md = renderComparisons([c], "md");
    expect(md).toContain("| question | kind | outcome A → B | answer | RR A → B | delta |");
    expect(md).not.toContain("&gt;");
  });

  it("uses McNemar's exact test for yes/no outcomes with few discordant pairs", () => {
    const c = compareSides(side(evalDir, "bm25-small"), side(evalDir, "hybrid-rerank"), { seed: 3, reps: 300 });
    const hit = c.metrics.find((m) => m.metric === "Hit@10")!;
    expect(hit.mcnemar!.test).toBe("exact");
    expect(hit.mcnemar!.p).toBe(mcnemarCounts(hit.mcnemar!.b, hit.mcnemar!.c).pExact);
    const a = new Map(base.variants[0]!.retrieval.perQuery.map((q) => [q.id, q.values["Hit@10"]]));
    const b = new Map(base.variants[1]!.retrieval.perQuery.map((q) => [q.id, q.values["Hit@10"]]));
    let lost = 0;
    let gained = 0;
    for (const [id, x] of a) {
      if (x === 1 && b.get(id) === 0) lost++;
      if (x === 0 && b.get(id) === 1) gained++;
    }
    expect([hit.mcnemar!.b, hit.mcnemar!.c]).toEqual([lost, gained]);
    expect(c.metrics.find((m) => m.metric === "RR")!.mcnemar).toBeNull();
  });

  it("refuses two different golden sets", () => {
    const a = evaluation("golden-a");
    const b = evaluation("golden-b", (r) => (r.inputs.golden.sha256 = "0".repeat(64)));
    expect(() => compareSides(side(a, "bm25-small"), side(b, "bm25-small"))).toThrow(/different golden sets/);
  });

  it("is reproducible: the same seed gives the same intervals", () => {
    const x = compareSides(side(evalDir, "bm25-small"), side(evalDir, "hybrid-rerank"), { seed: 11, reps: 400 });
    const y = compareSides(side(evalDir, "bm25-small"), side(evalDir, "hybrid-rerank"), { seed: 11, reps: 400 });
    expect(y.headline.ci).toEqual(x.headline.ci);
    expect(y.groups).toEqual(x.groups);
  });
});

describe("loading evaluations", () => {
  it("splits FOLDER#variant and pairs same-named variants", () => {
    expect(parseSide("evaluations/x#hybrid-rerank")).toEqual({ folder: "evaluations/x", variant: "hybrid-rerank" });
    expect(parseSide("evaluations/x")).toEqual({ folder: "evaluations/x" });
    const ev = loadEvaluation(evalDir);
    expect(variantPairs(ev, undefined, ev, undefined).map(([a, b]) => [a.variant.name, b.variant.name])).toEqual([["bm25-small", "bm25-small"], ["hybrid-rerank", "hybrid-rerank"]]);
  });

  it("refuses a folder without report.json and a report that fails its schema, naming the file and field", () => {
    const empty = join(work, "empty");
    mkdirSync(empty, { recursive: true });
    expect(() => loadEvaluation(empty)).toThrow(InputError);
    expect(() => loadEvaluation(empty)).toThrow(/report\.json: not an evaluation folder/);
    const bad = evaluation("bad", (r) => ((r as unknown as { variants: unknown }).variants = "nope"));
    expect(() => loadEvaluation(bad)).toThrow(/report\.json: variants: /);
  });
});

describe("ragjudge compare", () => {
  it("compares the example's two variants of the latest evaluation and ends with the verdict line", async () => {
    const { code, out } = await runCliCaptured(["compare", "--variants", "bm25-small,hybrid-rerank", "--evaluations-dir", join(evalDir, ".."), "--reps", "300"]);
    expect(code).toBe(0);
    expect(out).toContain("compare: A = ");
    expect(out.trim().split("\n").pop()).toMatch(/^verdict: RR hybrid-rerank - bm25-small = [+-]\d\.\d{3} \(\d\.\d{3} → \d\.\d{3}\), 95% CI \[[^\]]+\] on 48 questions: the interval (in|ex)cludes zero/);
  });

  it("exits 1 with --fail-on-regression when a group regressed, 0 without it, and prints JSON on request", async () => {
    const a = evaluation("cli-a");
    const b = evaluation("cli-b", (r) => {
      const v = r.variants.find((x) => x.name === "bm25-small")!;
      for (const q of v.retrieval.perQuery) q.values["RR"] = q.values["RR"]! * 0.5;
    });
    expect((await runCliCaptured(["compare", `${a}#bm25-small`, `${b}#bm25-small`, "--reps", "300"])).code).toBe(0);
    const failing = await runCliCaptured(["compare", `${a}#bm25-small`, `${b}#bm25-small`, "--reps", "300", "--fail-on-regression"]);
    expect(failing.code).toBe(1);
    expect(failing.err).toMatch(/ragjudge: regression: bm25-small against bm25-small: overall RR -0\.\d{3}/);
    const json = await runCliCaptured(["compare", `${a}#bm25-small`, `${b}#bm25-small`, "--reps", "300", "--format", "json"]);
    const parsed = JSON.parse(json.out) as { comparisons: { headline: { direction: string } }[] };
    expect(parsed.comparisons[0]!.headline.direction).toBe("worse");
  });

  it("exits 2 on usage errors and an unknown metric", async () => {
    expect((await runCliCaptured(["compare", evalDir])).code).toBe(2);
    const r = await runCliCaptured(["compare", `${evalDir}#bm25-small`, `${evalDir}#hybrid-rerank`, "--metric", "MRR@3"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no per-question MRR@3 \(read as RR@3\) in both evaluations \(available: .*RR/);
  });

  it("reads --metric by the measure names --fail-under takes (MRR is RR), and says when a name is no metric at all", async () => {
    const [a, b] = [`${evalDir}#bm25-small`, `${evalDir}#hybrid-rerank`];
    const mrr = await runCliCaptured(["compare", a, b, "--metric", "MRR", "--reps", "200", "--format", "json"]);
    expect(mrr.code, mrr.err).toBe(0);
    expect((JSON.parse(mrr.out) as { comparisons: { headline: { metric: string } }[] }).comparisons[0]!.headline.metric).toBe("RR");
    expect(metricLabel("ndcg_cut_10")).toBe("nDCG@10");
    expect(metricLabel("recip_rank")).toBe("RR");
    const unknown = await runCliCaptured(["compare", a, b, "--metric", "MRRR"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^ragjudge: error: --metric: unknown metric "MRRR"; known: AP, R-Prec, RR, RR@k, P@k, R@k, nDCG@k, Hit@k /);
    const family = await runCliCaptured(["compare", a, b, "--metric", "R"]);
    expect(family.code).toBe(2);
    expect(family.err).toContain('"R" names no single per-question metric: give one with its cutoff, such as R@10');
  });
});
