/**
 * One definition per figure (issue 12): citation accuracy once had three
 * pass rates for one judge and variant (answers in `judge`, sentence-citation
 * pairs in `run`, questions in `compare`). Now its pass rate counts answers
 * whose every citation is supported, everywhere; the pairs keep their own
 * name ("citation pairs supported").
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareSides } from "../../src/report/compare/compare.js";
import { loadEvaluation } from "../../src/report/compare/load.js";
import { runEvaluation } from "../../src/report/evaluation.js";
import { runCliCaptured } from "../helpers/cli.js";
import { exampleCopy } from "./helpers.js";

describe("citation accuracy's pass rate", () => {
  it("is the same figure, with the same unit, in judge, run, every report and compare", async () => {
    const copy = exampleCopy();
    const judge = await runCliCaptured(["judge", "--config", copy.config, "--out", join(copy.dir, "j.jsonl"), "--no-progress", "--json"]);
    expect(judge.code).toBe(0);
    const figures = (JSON.parse(judge.out) as { figures: { rubric: string; variants: { variant: string; overall: { pass: number; fail: number; rate: number }; citations: { supported: number; unsupported: number } }[] }[] }).figures;
    const fromJudge = figures.find((f) => f.rubric === "citation-accuracy")!.variants;

    const run = await runEvaluation({ config: copy.config });
    const rubric = run.report.rubrics.find((r) => r.rubric === "citation-accuracy")!;
    const ev = loadEvaluation(run.folder);
    for (const jv of fromJudge) {
      const rv = rubric.variants.find((v) => v.variant === jv.variant)!;
      expect([rv.pass, rv.fail]).toEqual([jv.overall.pass, jv.overall.fail]);
      expect(rv.raw.value).toBe(jv.overall.rate);
      // The pairs are there under their own name, with the judge summary's counts.
      expect(rv.pairs!.pass + rv.pairs!.fail).toBeGreaterThan(rv.pass + rv.fail);
      const side = { evaluation: ev, variant: ev.report.variants.find((v) => v.name === jv.variant)! };
      const c = compareSides(side, side, { seed: 1, reps: 200 }).rubrics.find((r) => r.measure === "citation-accuracy")!;
      expect(c.paired!.n).toBe(jv.overall.pass + jv.overall.fail);
      expect(c.paired!.meanA).toBeCloseTo(jv.overall.rate, 12);
    }
    expect(rubric.rateUnit).toBe("answers");
    // Every human report prints that rate with its unit, and the pairs apart.
    const bm25 = fromJudge.find((v) => v.variant === "bm25-small")!;
    const pct = `${(100 * bm25.overall.rate).toFixed(1)}%`;
    expect(run.summary).toMatch(new RegExp(`bm25-small\\s+untrusted ${pct.replace(".", "\\.")}\\s+\\[[\\d., ]+\\]\\s+${bm25.overall.pass + bm25.overall.fail}\\s`));
    expect(run.summary).toMatch(/bm25-small: citation pairs supported\s+untrusted \d+\.\d%/);
  });
});
