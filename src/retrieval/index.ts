/**
 * Retrieval scoring, importable from a team's own test suite: the golden-set
 * scorer, the trec_eval-exact TREC path, the measure registry and floors.
 * The package root re-exports all of it; `ragjudge/retrieval` is this module
 * alone, for a test that only scores retrieval: it loads none of the judge,
 * calibration, review or reports, so it imports in a fraction of the root's
 * time (README, "ragjudge as a library"). Every name
 * means what it means at the root (`summariseValues` is retrieval's summary;
 * the root's `summarise` is the judge's).
 *
 * @example
 * import { scoreRetrievalFiles, overallValue } from "ragjudge/retrieval";
 * const score = scoreRetrievalFiles({ golden: "golden/questions.jsonl", chunks: "chunks.jsonl", output: "runs/bm25.output.jsonl" }, { measures: ["R@10", "RR"] });
 * expect(overallValue(score, "R@10")).toBeGreaterThanOrEqual(0.7);
 */
export { scoreRetrieval, scoreRetrievalFiles, overallValue, GROUP_BY } from "./score.js";
export type { GroupBy, ScoreOptions, QuestionScore, GroupScore, RetrievalScore } from "./score.js";
export { computeValues, summarise as summariseValues } from "./evaluate.js";
export type { Evaluation, QueryValues } from "./evaluate.js";
export { judgeList } from "./judged.js";
export { MEASURES, MEASURE_BY_FAMILY } from "./measures/registry.js";
export { MeasureSpecError, UnknownMeasureError, parseMeasure, parseMeasures, measureLabel, parseCutoffs, defaultMeasures, headlineMeasures, allMeasures, countMeasures, sortMeasures, instantiate } from "./measures/parse.js";
export { measureHelp } from "./measures/help.js";
export type { JudgedList, Measure, MeasureDef, Aggregation } from "./measures/types.js";
export { parseFloors, checkFloors, formatMissedValue, FLOOR_TOLERANCE } from "./floors.js";
export type { Floor, FloorMiss, FloorsSource } from "./floors.js";
export { readQrels, numRelevant } from "./trec/qrels.js";
export type { Qrels, QrelsQuery } from "./trec/qrels.js";
export type { KeyTable } from "./trec/keytable.js";
export type { LineView } from "./trec/lines.js";
export { readRun, docnoOf, NONPOOL, UNJUDGED } from "./trec/run.js";
export type { TrecRun } from "./trec/run.js";
export { evaluateTrec, evaluateTrecFiles, scoreTrecFiles } from "./trec/evaluate.js";
export type { TrecEvalOptions, TrecEvaluation } from "./trec/evaluate.js";
export { formatTrecEval, NoTrecNameError } from "./trec/write.js";
export { formatFixed4, formatG17 } from "./trec/numbers.js";
export { parseTrecEvalOutput } from "./trec/reference.js";
export { pipelineToRun, goldenToQrels, NO_RELEVANT_PLACEHOLDER } from "./trec/export.js";
export { goldenView, trecView, renderTable, renderMarkdown, viewJson } from "./report.js";
export type { RetrievalView } from "./report.js";

// The golden set and outputs the scorer takes: the loaders (loaded by the scorer anyway), and the types
// the signatures above name.
export { loadGolden, loadVariant } from "../golden/dataset.js";
export type { GoldenSet, VariantData } from "../golden/dataset.js";
export type { ChunkIndex, IndexedChunk } from "../golden/relevance.js";
export type { Chunk, GoldenQuestion } from "../golden/schema/golden.js";
export type { LinePassage, PipelineOutput, RankedList } from "../golden/schema/pipeline.js";
export type { StageRoles, VariantConfig } from "../golden/schema/config.js";
