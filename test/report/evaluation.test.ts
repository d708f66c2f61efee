import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/golden/config.js";
import { contextOf, loadGolden, loadVariant, relevantSets } from "../../src/golden/dataset.js";
import { InputErrors } from "../../src/golden/errors.js";
import { Judgment } from "../../src/golden/schema/items.js";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { ReportJson } from "../../src/report/schema.js";
import { OUTCOMES, type Outcome } from "../../src/report/search-or-answer.js";
import { EVALUATION_FILES } from "../../src/report/write.js";
import { BASELINE_CONCURRENCY } from "../../src/judge/judges/baseline-threads.js";
import { exampleCopy, type ExampleCopy } from "./helpers.js";

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

describe("runEvaluation on the shipped example", () => {
  let copy: ExampleCopy;
  let result: EvaluationResult;
  const stages: string[] = [];
  beforeAll(async () => {
    copy = exampleCopy();
    result = await runEvaluation({ config: copy.config, now: () => new Date("2026-11-30T13:45:01.250Z"), onStage: (s, ms) => void (ms >= 0 && stages.push(s)) });
  });

  it("reports each stage once, in order, as it ends (for npm run bench:run)", () => {
    expect(stages).toEqual(["validate", "load", "judge", "score", "diagnose", "calibrate", "join", "write"]);
  });

  it("writes one complete evaluation folder named <UTC time>-<name>, and nothing else", () => {
    expect(result.folder).toBe(join(copy.evaluations, "20261130T134501Z-example"));
    expect(readdirSync(copy.evaluations)).toEqual(["20261130T134501Z-example"]);
    const files = listFiles(result.folder);
    for (const f of EVALUATION_FILES) expect(files).toContain(f);
    expect(files).toEqual(result.report.files);
    expect(ReportJson.parse(JSON.parse(readFileSync(join(result.folder, "report.json"), "utf8")))).toEqual(result.report);
    expect(readFileSync(join(result.folder, "summary.txt"), "utf8")).toBe(result.summary);
  });

  it("records the exact config, input hashes and fingerprints, and never an API key", () => {
    const config = JSON.parse(readFileSync(join(result.folder, "config.json"), "utf8"));
    expect(config.config.variants.map((v: { name: string }) => v.name)).toEqual(["bm25-small", "hybrid-rerank"]);
    expect(config.judge).toEqual({ kind: "baseline", repeats: 1, concurrency: BASELINE_CONCURRENCY });
    const inputs = JSON.parse(readFileSync(join(result.folder, "inputs.json"), "utf8"));
    expect(inputs.golden.path).toBe("golden/questions.jsonl");
    expect(inputs.golden.sha256).toMatch(/^[0-9a-f]{64}$/);
    const fps = JSON.parse(readFileSync(join(result.folder, "fingerprints.json"), "utf8")) as { rubric: string; fingerprint: string }[];
    expect(fps.map((f) => f.rubric)).toEqual(["citation-accuracy", "correctness", "faithfulness", "not-found"]);
    for (const r of result.report.rubrics) expect(fps.find((f) => f.rubric === r.rubric)?.fingerprint).toBe(r.fingerprint);
  });

  it("puts search or answering first in every human report", () => {
    const md = readFileSync(join(result.folder, "report.md"), "utf8");
    const html = readFileSync(join(result.folder, "report.html"), "utf8");
    expect(result.summary.indexOf("Search or answering")).toBeLessThan(result.summary.indexOf("Retrieval by kind"));
    expect(md.indexOf("## Search or answering")).toBeGreaterThan(0);
    expect(md.indexOf("## Search or answering")).toBeLessThan(md.indexOf("## Retrieval by kind"));
    expect(html.indexOf('id="search-or-answer"')).toBeLessThan(html.indexOf('id="retrieval"'));
  });

  it("shows the trust state on every pass-rate line, and an untrusted rubric never as a headline", () => {
    const rateLines = result.summary.split("\n").filter((l) => /^(bm25-small|hybrid-rerank)\s+\S+\s+\d+\.\d%/.test(l));
    expect(rateLines.length).toBeGreaterThan(0);
    for (const l of rateLines) expect(l).toMatch(/^\S+\s+untrusted \d+\.\d%/);
    expect(result.summary).toContain("UNTRUSTED: no calibration record for this judge: no label pairs with its verdicts yet");
    const md = readFileSync(join(result.folder, "report.md"), "utf8");
    expect(md).toContain("Untrusted rubrics (not headline figures until calibrated): citation-accuracy, correctness, faithfulness, not-found.");
    expect(md).not.toContain("Trusted pass rates:");
  });

  it("makes the cross-tab agree with the judgments of the run, question by question", () => {
    const judgments = readFileSync(join(result.folder, "judgments.jsonl"), "utf8").trim().split("\n").map((l) => Judgment.parse(JSON.parse(l)));
    const resolved = loadConfig(copy.config);
    const golden = loadGolden(resolved.path(resolved.config.golden));
    for (const vc of resolved.config.variants) {
      const variant = loadVariant(vc, golden, resolved.path);
      const rel = relevantSets(golden, variant.chunks);
      const verdict = (q: string, rubric: string) => judgments.find((j) => j.variant === vc.name && j.question === q && j.rubric === rubric && j.unit === "answer" && j.repeat === 0)?.verdict;
      const expected = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
      for (const q of golden.questions) {
        let o: Outcome;
        if (!q.answerable) {
          const v = verdict(q.id, "not-found");
          o = v === "yes" ? "correct-not-found" : v === "no" ? "invented-answer" : "unjudged";
        } else {
          const out = variant.outputs.get(q.id);
          const inContext = !!out && contextOf(out, vc.contextK).some((id) => rel.get(q.id)!.has(id));
          const vs = [verdict(q.id, "correctness"), verdict(q.id, "faithfulness")];
          const passed = vs.includes("no") ? false : vs.every((v) => v === "yes") ? true : null;
          o = passed === null ? "unjudged" : passed ? (inContext ? "ok" : "ok-without-retrieval") : inContext ? "generation-failure" : "retrieval-failure";
        }
        expected[o]++;
        const row = result.report.variants.find((v) => v.name === vc.name)!.searchOrAnswer.questions.find((x) => x.id === q.id)!;
        expect(row.outcome, `${vc.name} ${q.id}`).toBe(o);
      }
      const tab = result.report.variants.find((v) => v.name === vc.name)!.searchOrAnswer.overall;
      expect(tab.counts).toEqual(expected);
      expect(tab.n).toBe(golden.questions.length);
      const byKindTotal = result.report.variants.find((v) => v.name === vc.name)!.searchOrAnswer.byKind.reduce((s, k) => s + k.tab.n, 0);
      expect(byKindTotal).toBe(golden.questions.length);
    }
    const outcomes = readFileSync(join(result.folder, "outcomes.jsonl"), "utf8").trim().split("\n");
    expect(outcomes).toHaveLength(2 * 60);
  });

  it("keeps retrieval figures equal to the library scorer's and the per-query rows complete", () => {
    for (const v of result.report.variants) {
      expect(v.retrieval.perQuery).toHaveLength(48);
      const mean = v.retrieval.perQuery.reduce((s, q) => s + q.values["RR"]!, 0) / 48;
      expect(v.retrieval.overall.values["RR"]).toBeCloseTo(mean, 12);
      expect(v.retrieval.main).toEqual(["Hit@10", "R@10", "RR", "nDCG@10"]);
    }
  });
});

describe("runEvaluation refuses bad input before writing anything", () => {
  it("a broken golden line is one located error, and no folder appears", async () => {
    const copy = exampleCopy();
    const golden = join(copy.dir, "golden", "questions.jsonl");
    const lines = readFileSync(golden, "utf8").split("\n");
    lines[2] = lines[2]!.replace('"question":', '"questoin":');
    writeFileSync(golden, lines.join("\n"));
    const err = await runEvaluation({ config: copy.config }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputErrors);
    expect((err as InputErrors).problems[0]!.message).toMatch(/questions\.jsonl:3: /);
    expect(existsSync(copy.evaluations)).toBe(false);
  });

  it("a bad floor in the config names the config, its line and its field", async () => {
    const copy = exampleCopy((c) => (c.floors = { "R@ten": 0.5 }));
    const line = readFileSync(copy.config, "utf8").split("\n").findIndex((l) => l.includes('"R@ten"')) + 1;
    expect(line).toBeGreaterThan(0);
    await expect(runEvaluation({ config: copy.config })).rejects.toThrow(new RegExp(`ragjudge\\.config\\.json:${line}: floors\\.R@ten: `));
    expect(existsSync(copy.evaluations)).toBe(false);
  });
});

describe("runEvaluation with the optional anchor-ambiguity rubric", () => {
  it("feeds its verdicts into the miss analysis, so anchor-ambiguity becomes decidable", async () => {
    const copy = exampleCopy((c) => (c.rubrics = ["citation-accuracy", "correctness", "faithfulness", "not-found", "anchor-ambiguity"]));
    const r = await runEvaluation({ config: copy.config });
    for (const v of r.report.variants) {
      expect(v.failures.ambiguityJudged).toBe(true);
      expect(v.failures.undecidable.map((u) => u.failure)).not.toContain("anchor-ambiguity");
    }
    const amb = r.report.rubrics.find((x) => x.rubric === "anchor-ambiguity")!;
    expect(amb.unit).toBe("question");
    // it judges exactly the miss analysis's misses: one item per answerable question with no relevant chunk in the top missK
    const misses = r.report.variants.map((v) => v.misses.length);
    expect(amb.variants.map((v) => v.pass + v.fail + v.errors)).toEqual(misses);
  });
});
