/**
 * ragjudge as a library: what the commands are built from, importable with
 * types, so a team can assert floors and trust in its own test suite. Batch
 * mode is the CLI's only: its steps keep their state in the judge cache under
 * a lease the commands take and release (src/cli/actions/batch.ts).
 *
 * @example
 * import { loadConfig, loadGolden, loadVariant, scoreRetrieval, overallValue } from "ragjudge";
 * const cfg = loadConfig();
 * const golden = loadGolden(cfg.path(cfg.config.golden));
 * const r = scoreRetrieval(golden, loadVariant(cfg.config.variants[0]!, golden, cfg.path), { k: [10] });
 * expect(overallValue(r, "R@10")).toBeGreaterThanOrEqual(0.6);
 */

// Inputs: formats, loading, validation, hashing, atomic writes.
export * from "./golden/schema/common.js";
export * from "./golden/schema/config.js";
export * from "./golden/schema/golden.js";
export * from "./golden/schema/items.js";
export * from "./golden/schema/pipeline.js";
export * from "./golden/config.js";
export * from "./golden/dataset.js";
export * from "./golden/errors.js";
export * from "./golden/files.js";
export * from "./golden/hash.js";
export * from "./golden/jsonl.js";
export * from "./golden/normalise.js";
export * from "./golden/relevance.js";
export * from "./golden/passages.js";
export { convertRows, IMPORT_FIELDS, type ImportOptions, type Converted, type ImportField } from "./golden/import/convert.js";
export { readCsvRows, readJsonlRows, parseListCell, type SourceRow, type SourceTable } from "./golden/import/rows.js";
export { writeStarter, starterConfig, type InitResult, type StarterFile, type StarterNames } from "./golden/starter.js";
export * from "./golden/citations.js";
export * from "./golden/validate.js";
export * from "./golden/anchors.js";
export * from "./golden/document.js";
export * from "./golden/escape.js";
export { wordTokens, stemWord, contentWords, wordCount, STOP_WORDS as QUERY_STOP_WORDS } from "./golden/words.js";
export type { Draw, DrawItem } from "./golden/schema/draw.js";
export type { FastCheck } from "./golden/schema/fast.js";
export type { NumberBounds } from "./golden/bounds.js";
export type { ReadPath } from "./golden/paths.js";
export type { ChunkTextSource } from "./golden/chunk-text.js";
export type { ChunksFrom } from "./golden/known-ids.js";

// Retrieval: scoring, TREC, floors, diagnostics.
export * from "./retrieval/index.js";
export * from "./retrieval/diagnostics/index.js";
// report.json's retrieval section, with the diagnostics: not in ragjudge/retrieval, which loads no diagnostics.
export { retrievalResultsJson } from "./retrieval/report.js";

// The judge (its folders and their order: src/judge/index.ts).
export * from "./judge/index.js";

// Calibration: statistics, labels, records, the trust gate, corrected rates.
export * from "./calibration/index.js";
export * from "./calibration/summary-trust.js";

// The evaluation, the reports and the comparison.
export * from "./report/index.js";

// Names several areas use, made unambiguous: the plain name and an explicit alias for each.
export { summarise, summarise as summariseJudgments } from "./judge/summary/summary.js";
export { summarise as summariseValues } from "./retrieval/evaluate.js";
export { renderTable, renderMarkdown, renderTable as renderRetrievalTable, renderMarkdown as renderRetrievalMarkdown } from "./retrieval/report.js";
export { renderTable as renderTextTable } from "./retrieval/diagnostics/table.js";
export { renderTable as renderCalibrationTable, renderMarkdown as renderCalibrationMarkdown, renderJson as renderCalibrationJson } from "./calibration/render.js";

// People in the loop (README "ragjudge sample" and "ragjudge review"): drawing a review queue, and the
// session behind the review page and the terminal review. Writing the queue and the draws is the caller's
// (writeOutputFile, writeDraw), as `ragjudge sample` does.
export { sampleFromRun, type SampleRunOptions } from "./review/sample-run.js";
export { sampleQueue, type Candidate, type ExistingLabels, type SampleOptions, type RubricSample } from "./review/sample.js";
export type { RubricRunNotes } from "./review/candidates.js";
export { ReviewSession, ReviewRequestError, ReviewConflictError, provenanceNote, type ReviewOptions, type ConflictView, type JudgeView, type RevealView, type ItemState } from "./review/session.js";
export type { ItemView, ChunkView } from "./review/view.js";
export { readReviewLabels, type ReviewLabels } from "./review/store.js";
export type { Segment } from "./review/highlight.js";
export type { ReviewOrder } from "./review/order.js";
export { startReviewServer, type ReviewServer, type ServeOptions } from "./review/server.js";
export { runTtyReview, type TtyIo } from "./review/tty.js";

// Judge panels: combined judges as records, the panel run, its side-by-side calibration (README "Judge panels").
export { checkPanel, membersOf, PanelJudgeConfig } from "./golden/schema/panel.js";
export { cascadeEscalation, combinedJudge, inCascadeSample, type CombinedJudge, type CombineRule, type Member } from "./judge/judges/combined.js";
export { constantJudge } from "./judge/judges/constant.js";
export { mainJudgeOf, panelEntries, panelOrder, type PanelEntry, type PanelPrice } from "./judge/judges/panel.js";
export { PanelMemo, runPanel, type PanelJudgeRun, type PanelRubricUse, type PanelRunOptions } from "./judge/schedule/panel.js";
export { panelFigures, recommend, type PanelRubric, type PanelRow, type PanelPair, type PanelSplit, type PanelFiguresInput, type PanelJudgeInput } from "./calibration/panel.js";
export { judgePanel, panelJson, PANEL_JUDGMENTS, type PanelStepOptions } from "./report/panel/run.js";
export { PanelJson } from "./report/panel/schema.js";
export { panelSplitQueue, type PanelSplitCount, type PanelSplitOptions } from "./review/panel-splits.js";
