import { beforeAll, describe, expect, it } from "vitest";
import { runEvaluation, type EvaluationResult } from "../../src/report/evaluation.js";
import { junitSuites, reportJunit } from "../../src/report/junit-report.js";
import { exampleCopy } from "./helpers.js";

describe("junit.xml of a run", () => {
  let lax: EvaluationResult;
  let strict: EvaluationResult;
  beforeAll(async () => {
    const copy = exampleCopy((c) => (c.floors = { "R@10": 0.7, RR: 0.5 }));
    lax = await runEvaluation({ config: copy.config });
    strict = await runEvaluation({ config: copy.config, requireTrusted: true });
  });

  it("has one case per floor and variant, failing the missed one", () => {
    const floors = junitSuites(lax.report)[0]!;
    expect(floors.cases.map((c) => [c.classname, c.name, c.failure !== undefined])).toEqual([
      ["ragjudge.retrieval.bm25-small", "R@10 >= 0.7", true],
      ["ragjudge.retrieval.bm25-small", "RR >= 0.5", false],
      ["ragjudge.retrieval.hybrid-rerank", "R@10 >= 0.7", false],
      ["ragjudge.retrieval.hybrid-rerank", "RR >= 0.5", false],
    ]);
    expect(lax.failed).toBe(true);
  });

  it("skips untrusted rubrics unless trust is required, then fails them", () => {
    const skipped = junitSuites(lax.report)[1]!;
    expect(skipped.cases.every((c) => c.skipped !== undefined && c.failure === undefined)).toBe(true);
    const failing = junitSuites(strict.report)[1]!;
    expect(failing.cases.map((c) => c.failure)).toEqual([
      expect.stringMatching(/^citation-accuracy: untrusted: no calibration record for this judge: no label pairs/),
      expect.stringMatching(/^correctness: untrusted/),
      expect.stringMatching(/^faithfulness: untrusted/),
      expect.stringMatching(/^not-found: untrusted/),
    ]);
  });

  it("reports search or answering as passing informational cases: not decided while its rubrics are untrusted, the counts once they are trusted", () => {
    const soa = junitSuites(lax.report)[2]!;
    expect(soa.cases).toHaveLength(2);
    expect(soa.cases[0]!.name).toBe("bm25-small: not decided (untrusted answer rubrics)");
    expect(soa.cases[0]!.systemOut).toMatch(/^bm25-small: not decided: the answer verdicts rest on untrusted rubrics \(correctness, faithfulness, not-found\); retrieval alone: /);
    for (const c of soa.cases) expect(c.systemOut).not.toMatch(/failed answers|fix (search|answering)/);
    expect(soa.cases.every((c) => c.failure === undefined && c.skipped === undefined)).toBe(true);
    const trusted = { ...lax.report, rubrics: lax.report.rubrics.map((r) => ({ ...r, trust: { ...r.trust, trusted: true } })) };
    const decided = junitSuites(trusted)[2]!;
    expect(decided.cases[0]!.name).toMatch(/^bm25-small: ok \d+, retrieval failure \d+/);
    expect(decided.cases[0]!.systemOut).toBe(lax.report.variants[0]!.searchOrAnswer.diagnosis);
    const xml = reportJunit(strict.report);
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="ragjudge example" tests="10" failures="5" skipped="0" errors="0"/);
  });
});
