import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseMeasures } from "../../../src/retrieval/measures/parse.js";
import { evaluateTrecFiles } from "../../../src/retrieval/trec/evaluate.js";
import { REFERENCE_MEASURES, REFERENCE_MEASURES_FULL, parseTrecEvalOutput } from "../../../src/retrieval/trec/reference.js";
import { formatTrecEval } from "../../../src/retrieval/trec/write.js";
import { fixturePath } from "../../helpers/paths.js";

/**
 * The oracle: trec_eval's own outputs on fixed synthetic data (ties, shuffled
 * lines, graded qrels, queries only in the qrels or only in the run, queries
 * with no relevant document), copied from ../shared/reference/trec/small.
 */
const dir = fixturePath("trec", "small");
const qrels = join(dir, "qrels.txt");
const run = join(dir, "run.txt");
const oracle = (f: string) => readFileSync(join(dir, f), "utf8");

describe("agreement with trec_eval on the small fixture", () => {
  it("--format trec is byte-identical to trec_eval 10.0 -q -c (stock 4 decimals)", () => {
    const ev = evaluateTrecFiles(qrels, run, { measures: parseMeasures(REFERENCE_MEASURES, []) });
    expect(formatTrecEval(ev)).toBe(oracle("trec_eval.c.txt"));
  });

  it("agrees within 1e-9 with the full-precision output for every query and measure", () => {
    const ev = evaluateTrecFiles(qrels, run, { measures: parseMeasures(REFERENCE_MEASURES_FULL, []) });
    const ours = parseTrecEvalOutput(formatTrecEval(ev, { fullPrecision: true }));
    const theirs = parseTrecEvalOutput(oracle("trec_eval.c.full.txt"));
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    expect(theirs.size).toBeGreaterThan(900);
    for (const [key, v] of theirs) expect(Math.abs(ours.get(key)! - v), key).toBeLessThanOrEqual(1e-9);
  });

  it("prints the full-precision file byte for byte (printf %.17g)", () => {
    const ev = evaluateTrecFiles(qrels, run, { measures: parseMeasures(REFERENCE_MEASURES_FULL, []) });
    expect(formatTrecEval(ev, { fullPrecision: true })).toBe(oracle("trec_eval.c.full.txt"));
  });

  it("agrees with -l 2 (only grade >= 2 relevant; nDCG keeps its grades)", () => {
    const ev = evaluateTrecFiles(qrels, run, { measures: parseMeasures(REFERENCE_MEASURES_FULL, []), level: 2 });
    const ours = parseTrecEvalOutput(formatTrecEval(ev, { fullPrecision: true }));
    const theirs = parseTrecEvalOutput(oracle("trec_eval.c.l2.full.txt"));
    expect(ours.size).toBe(theirs.size);
    for (const [key, v] of theirs) expect(Math.abs(ours.get(key)! - v), key).toBeLessThanOrEqual(1e-9);
    // trec_eval -c reports the qrels' positive lines as the summary num_rel, whatever -l says
    expect(ours.get("num_rel\tall")).toBe(175);
  });

  it("--no-complete reproduces trec_eval 9.0.8 without -c (missing queries skipped)", () => {
    const ev = evaluateTrecFiles(qrels, run, { measures: parseMeasures(REFERENCE_MEASURES, []), complete: false });
    expect(formatTrecEval(ev)).toBe(oracle("trec_eval-9.0.8.noc.txt"));
    expect(ev.missing).toEqual(["15", "50", "7"]);
    expect(ev.runOnly.sort()).toEqual(["51", "52", "53"]);
  });

  it("scores qrels queries missing from the run 0 and counts them when complete", () => {
    const ev = evaluateTrecFiles(qrels, run, { measures: parseMeasures(["num_q,RR"], []) });
    const q15 = ev.queries.find((q) => q.id === "15")!;
    expect(q15.missing).toBe(true);
    expect(q15.values[1]).toBe(0);
    expect(ev.summary[0]).toBe(50);
  });
});
