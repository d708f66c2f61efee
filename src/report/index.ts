/**
 * The end-to-end evaluation (`ragjudge run`), the search-or-answering join,
 * the reports (terminal, Markdown, JSON, JUnit, HTML) and the paired
 * comparison of two evaluations (`ragjudge compare`). Library code only.
 */
export * from "./search-or-answer.js";
export * from "./join.js";
export * from "./schema.js";
export * from "./format.js";
export * from "./folder.js";
export * from "./evaluation.js";
export * from "./run-judge.js";
export * from "./write.js";
export * from "./terminal.js";
export * from "./markdown.js";
export * from "./junit.js";
export * from "./junit-report.js";
export { renderHtml } from "./html/page.js";
export type { HtmlOptions } from "./html/page.js";
export type { ChunkLookup, Compress } from "./html/sections/explorer.js";
export type { FileContent } from "./text-sink.js";
export type { Background } from "./background.js";
export * from "./items/schema.js";
export { buildItems as buildItemRecords, reviewCommand, shellWord, anchorSpans } from "./items/build.js";
export type { ItemsInput } from "./items/build.js";
export { itemsToCsv, itemsCsvColumns } from "./items/csv.js";
export { worstItems, failingReasons, failedVerdicts, FAILURE_CLASSES } from "./items/worst.js";
export type { FailureClass } from "./items/worst.js";
export { escapeHtml } from "./html/escape.js";
export { groupedBars, confusionMatrix, intervals, stackedShares } from "./html/charts.js";
export type { BarGroup, IntervalRow } from "./html/charts.js";
export { mainMeasures, retrievalJson, poolJson, failuresJson, missesJson } from "./build/retrieval.js";
export { rubricReports } from "./build/rubrics.js";
export type { RubricReportInput } from "./build/rubrics.js";
export { assembleReport, ragjudgeVersion, fileHash } from "./build/report.js";
export type { RunFindings } from "./build/report.js";
export * from "./compare/load.js";
export * from "./compare/compare.js";
export * from "./compare/render.js";
export * from "./compare/trust.js";
