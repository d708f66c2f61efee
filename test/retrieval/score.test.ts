import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadChunks, loadGolden, loadPipelineOutput } from "../../src/golden/dataset.js";
import { InputErrors } from "../../src/golden/errors.js";
import { PipelineOutput } from "../../src/golden/schema/pipeline.js";
import { MeasureSpecError, UnknownMeasureError } from "../../src/retrieval/measures/parse.js";
import { goldenView } from "../../src/retrieval/report.js";
import { overallValue, scoreRetrieval, scoreRetrievalFiles } from "../../src/retrieval/score.js";
import { evaluateTrecFiles } from "../../src/retrieval/trec/evaluate.js";
import { NO_RELEVANT_PLACEHOLDER, goldenToQrels, pipelineToRun } from "../../src/retrieval/trec/export.js";
import { formatTrecEval } from "../../src/retrieval/trec/write.js";
import { fixturePath } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";

const fx = fixturePath("retrieval");
const files = { golden: join(fx, "golden.jsonl"), chunks: join(fx, "chunks.jsonl"), output: join(fx, "bm25.output.jsonl") };

/** A golden set written from `jsonl` to a fresh temp file and loaded. */
function goldenOf(jsonl: string) {
  const g = join(tempDir("ragjudge-golden-"), "g.jsonl");
  writeFileSync(g, jsonl);
  return loadGolden(g);
}

describe("scoreRetrieval (golden-set mode)", () => {
  const s = scoreRetrievalFiles(files, { measures: ["R@5", "RR", "nDCG@5", "Hit@1", "num_rel"], by: ["kind", "tags"] });
  const v = (label: string, values: Float64Array) => values[s.measures.findIndex((m) => m.label === label)];

  it("names the variant after the output file and scores answerable questions only", () => {
    expect(s.variant).toBe("bm25");
    expect(s.questions.map((q) => q.id)).toEqual(["q01", "q02", "q03", "q05"]);
    expect(s.unanswerable).toEqual(["q04"]);
  });

  it("finds relevant chunks through anchors (normalised) and ids; list order is the ranking", () => {
    const [q01, q02, q03] = s.questions;
    expect(q01!.firstRelevantRank).toBe(1); // anchor with doubled spaces still matches hr-leave#1
    expect(q02!.firstRelevantRank).toBe(3);
    expect(q03!.firstRelevantRank).toBeNull();
    expect(v("RR", q02!.values)).toBeCloseTo(1 / 3, 15);
    expect(v("nDCG@5", q02!.values)).toBeCloseTo(0.5, 15);
  });

  it("scores a question without output 0 and counts it in every mean", () => {
    expect(s.missing).toEqual(["q05"]);
    expect(s.questions[3]!.missing).toBe(true);
    expect(s.overall.n).toBe(4);
    expect(overallValue(s, "RR")).toBeCloseTo((1 + 1 / 3) / 4, 15);
    expect(overallValue(s, "R@5")).toBe(0.5);
    expect(overallValue(s, "num_rel")).toBe(4);
  });

  it("takes a measure's overall value by any name -m accepts, not only its label", () => {
    for (const name of ["MRR", "recip_rank", "rr", "mrr"]) expect(overallValue(s, name), name).toBe(overallValue(s, "RR"));
    expect(overallValue(s, "recall_5")).toBe(0.5);
    expect(overallValue(s, "ndcg_cut_5")).toBe(overallValue(s, "nDCG@5"));
    expect(overallValue(s, "success_1")).toBe(overallValue(s, "Hit@1"));
  });

  it("gives undefined for a measure not computed, and refuses a name that is no single measure", () => {
    expect(overallValue(s, "R@10")).toBeUndefined();
    expect(overallValue(s, "MAP")).toBeUndefined();
    expect(() => overallValue(s, "recal@5")).toThrow(UnknownMeasureError);
    expect(() => overallValue(s, "recal@5")).toThrow(/^unknown measure "recal@5" \(known: /);
    expect(() => overallValue(s, "R@1O")).toThrow(new MeasureSpecError('bad cutoff "1O" in measure "R@1O": expected a positive whole number'));
    expect(() => overallValue(s, "R")).toThrow(new MeasureSpecError('"R" names no single measure: give one with its cutoff, such as R@10 or nDCG@10'));
  });

  it("means by kind and by each tag", () => {
    const g = (by: string, key: string) => s.groups.find((x) => x.by === by && x.key === key)!;
    expect(g("kind", "factual").n).toBe(2);
    expect(v("RR", g("kind", "factual").values)).toBe(0.5);
    expect(g("tags", "policy").n).toBe(3);
    expect(v("R@5", g("tags", "policy").values)).toBeCloseTo(2 / 3, 15);
    expect(g("tags", "it").n).toBe(1);
  });

  it("exported run and qrels give the same numbers through the trec_eval path", () => {
    const golden = loadGolden(files.golden);
    const chunks = loadChunks(files.chunks);
    const { outputs, lineOf } = loadPipelineOutput(files.output, golden);
    const dir = tempDir("ragjudge-export-");
    const runFile = join(dir, "run.txt");
    const qrelsFile = join(dir, "qrels.txt");
    writeFileSync(runFile, pipelineToRun(outputs, "bm25", { file: files.output, lineOf }));
    writeFileSync(qrelsFile, goldenToQrels(golden, chunks));
    const score = scoreRetrieval(golden, { name: "bm25", chunks, outputs }, { k: [1, 5, 10] });
    const viaTrec = evaluateTrecFiles(qrelsFile, runFile, { measures: score.measures });
    expect(formatTrecEval(viaTrec, { fullPrecision: true })).toBe(formatTrecEval(score.evaluation, { fullPrecision: true }));
  });

  it("keeps an answerable question whose anchor matches no chunk, at 0, and exports a placeholder for it", () => {
    const golden = goldenOf('{"id":"a","question":"?","anchor":{"doc":"it","text":"no such words anywhere"}}\n{"id":"b","question":"?","relevant":["it#0"]}\n');
    const chunks = loadChunks(files.chunks);
    const sc = scoreRetrieval(golden, { name: "x", chunks, outputs: new Map() }, { measures: ["R@5"] });
    expect(sc.noRelevant).toEqual(["a"]);
    expect(sc.groups).toEqual([]); // no question has a kind: no "(no kind)" row repeating the overall one
    expect(sc.overall.n).toBe(2);
    expect(goldenToQrels(golden, chunks)).toBe(`a 0 ${NO_RELEVANT_PLACEHOLDER} 0\nb 0 it#0 1\n`);
  });

  it("lists questions whose relevant ids this chunks file lacks, and says so in the report notes", () => {
    const golden = goldenOf('{"id":"a","question":"?","relevant":["it#0","other-chunking#7"]}\n{"id":"b","question":"?","relevant":["it#0"]}\n');
    const chunks = loadChunks(files.chunks);
    const sc = scoreRetrieval(golden, { name: "x", chunks, outputs: new Map([["a", { id: "a", retrieved: ["it#0"] }]]) }, { measures: ["R@5"] });
    expect(sc.unknownRelevant).toEqual(["a"]);
    expect(sc.questions[0]!.values[0]).toBe(0.5); // the unknown id still counts in R
    expect(goldenView(sc).notes).toContain("1 answerable question lists relevant ids this chunks file lacks: a; they count in R, so recall cannot reach 1 (ragjudge validate names them)");
  });

  it("refuses to export ids with white space", () => {
    const outputs = new Map([["q 1", { id: "q 1", retrieved: ["a b"] }]]);
    expect(() => pipelineToRun(outputs, "v", { file: "out.jsonl", lineOf: new Map([["q 1", 3]]) })).toThrow(InputErrors);
    try {
      pipelineToRun(outputs, "v", { file: "out.jsonl", lineOf: new Map([["q 1", 3]]) });
    } catch (e) {
      expect((e as InputErrors).problems.map((p) => p.message)).toEqual([
        'out.jsonl:3: id: "q 1" contains white space, which a TREC file cannot hold',
        'out.jsonl:3: retrieved[0]: "a b" contains white space, which a TREC file cannot hold',
      ]);
    }
  });

  it("writes strictly decreasing scores so trec_eval keeps the list order, whatever scores the pipeline gave", () => {
    const line = PipelineOutput.parse({ id: "q", retrieved: [{ id: "z", score: 1 }, { id: "a", score: 1 }, { id: "m", score: 5 }] });
    const run = pipelineToRun(new Map([["q", line]]), "t");
    expect(run).toBe("q Q0 z 1 3 t\nq Q0 a 2 2 t\nq Q0 m 3 1 t\n");
  });
});
