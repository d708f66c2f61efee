import type { CalibrationReport } from "../calibration/calibrate.js";
import { recordKey, recordPath, writeRecord } from "../calibration/record.js";
import { renderJson as calibrationJson, renderMarkdown as calibrationMarkdown } from "../calibration/render.js";
import type { ResolvedConfig } from "../golden/config.js";
import { displayPath } from "../golden/errors.js";
import type { ValidationReport } from "../golden/validate.js";
import type { JudgeFlags, JudgeSettings } from "../judge/judges/settings.js";
import type { Summary } from "../judge/summary/summary.js";
import type { VariantDiagnostics } from "../retrieval/diagnostics/diagnose.js";
import { goldenView, viewJson } from "../retrieval/report.js";
import type { RetrievalScore } from "../retrieval/score.js";
import { relPath, type EvaluationFolder } from "./folder.js";
import { startBackground, type Background } from "./background.js";
import { renderHtmlLazy } from "./html/page.js";
import type { ChunkLookup } from "./html/sections/explorer.js";
import { reportJunit } from "./junit-report.js";
import { renderReportMarkdown } from "./markdown.js";
import type { ReportJson } from "./schema.js";
import { renderTerminal } from "./terminal.js";
import { itemsCsvPieces } from "./items/csv.js";
import { ItemRecord } from "./items/schema.js";
import { prettyJson } from "../golden/pretty-json.js";
import type { FileContent } from "./text-sink.js";

/** The fixed files of an evaluation folder, besides the calibration records. */
export const EVALUATION_FILES = [
  "summary.txt", "report.json", "report.md", "report.html", "junit.xml",
  "config.json", "inputs.json", "fingerprints.json", "validation.json",
  "retrieval.json", "diagnostics.json", "judgments.jsonl", "judge-summary.json",
  "outcomes.jsonl", "calibration.json", "calibration.md", "items.jsonl", "items.csv",
] as const;

/** The files a run will write, known before writing so report.json can list them. */
export interface FilePlan {
  files: string[];
  /** Calibration records by `recordKey`, relative to the folder. */
  records: Map<string, string>;
}

/** Plans the folder's files: the fixed ones and one calibration record per calibrated rubric and fingerprint. */
export function planFiles(calibration: CalibrationReport): FilePlan {
  const records = new Map<string, string>();
  for (const r of calibration.rubrics) {
    if (!r.hasLabels) continue;
    // Where writeRecord puts it when the evaluation folder is its labels folder.
    records.set(recordKey(r.record), relPath(".", recordPath(".", r.record.rubric, r.record.fingerprint, r.record.servedModels[0])));
  }
  return { files: [...EVALUATION_FILES, ...records.values()].sort(), records };
}

/** Everything {@link writeEvaluation} writes besides the reports. */
export interface EvaluationArtifacts {
  report: ReportJson;
  resolved: ResolvedConfig;
  settings: JudgeSettings;
  judgeFlags: JudgeFlags;
  cacheDir: string;
  evaluationsDir: string;
  fingerprints: { rubric: string; fingerprint: string; template: unknown }[];
  validation: ValidationReport;
  scores: RetrievalScore[];
  diagnostics: VariantDiagnostics[];
  judgmentsText: string;
  summary: Summary;
  calibration: CalibrationReport;
  plan: FilePlan;
  /** One record per question of each variant (items.jsonl, items.csv, the HTML explorer, report.md's worst items). */
  items: ItemRecord[];
  /** A variant's chunk by id, for the explorer's retrieved chunks outside the context. */
  chunkOf?: ChunkLookup;
  /** A judge panel's verdicts (panel-judgments.jsonl), when the config has `judges`. */
  panelJudgmentsText?: string;
}

/** `JSON.stringify(v, null, 2)` and a line break, written in pieces (golden/pretty-json.ts). */
const json = (v: unknown): FileContent => (write) => {
  prettyJson(v, write);
  write("\n");
};

/** Lines, each followed by a line break; `emptyText` when there are none. */
function lines<T>(xs: readonly T[], line: (x: T) => string, emptyText = ""): FileContent {
  return (write) => {
    if (xs.length === 0) write(emptyText);
    for (const x of xs) write(line(x) + "\n");
  };
}

/** The judge settings as run, without the API key (which is never written anywhere). */
function settingsJson(s: JudgeSettings): Record<string, unknown> {
  if (s.kind === "baseline") return { ...s };
  const { apiKey: _key, ...rest } = s;
  return rest;
}

/**
 * Writes every artifact into the (hidden) evaluation folder, then report.json
 * last, and renames the folder into place. Returns the terminal summary
 * (also written as summary.txt). The page's explorer evidence is compressed
 * on a second thread while the other files are written (background.ts: the
 * caller's, or one started for the call).
 */
export async function writeEvaluation(folder: EvaluationFolder, a: EvaluationArtifacts, background?: Background): Promise<string> {
  if (background) return writeFiles(folder, a, background);
  const own = startBackground();
  try {
    return await writeFiles(folder, a, own);
  } finally {
    await own.close();
  }
}

async function writeFiles(folder: EvaluationFolder, a: EvaluationArtifacts, background: Background): Promise<string> {
  const { report, resolved } = a;
  // The page's evidence shards are built whenever the other thread has room, between the writes of the other
  // files (each time the folder's buffer is flushed), so it compresses them while this thread writes the rest.
  const html = renderHtmlLazy(report, { items: a.items, ...(a.chunkOf ? { chunkOf: a.chunkOf } : {}), compress: background.compress });
  const feed = () => {
    while (background.hasRoom() && html.step());
  };
  folder.onFlush = feed;
  feed();
  folder.write("config.json", json({
    file: displayPath(resolved.file),
    shippedExample: resolved.isShippedExample,
    config: resolved.config,
    judge: settingsJson(a.settings),
    overrides: a.judgeFlags,
    cacheDir: displayPath(a.cacheDir),
    evaluationsDir: displayPath(a.evaluationsDir),
  }));
  folder.write("inputs.json", json(report.inputs));
  folder.write("fingerprints.json", json(a.fingerprints));
  folder.write("validation.json", json({ warnings: a.validation.warnings.map((w) => w.message), notes: a.validation.notes, questions: a.validation.questions, variants: a.validation.variants }));
  folder.write("retrieval.json", json(a.scores.map((s) => viewJson(goldenView(s), { perQuery: true }))));
  folder.write("diagnostics.json", json(a.diagnostics));
  folder.write("judgments.jsonl", a.judgmentsText);
  if (a.panelJudgmentsText !== undefined) folder.write("panel-judgments.jsonl", a.panelJudgmentsText);
  folder.write("judge-summary.json", json(a.summary));
  // buildItems' types fix the records' shape; the schema checks each variant's first record here (every one
  // was a second of zod at 20,000 items) and every record in the tests (test/report/items.test.ts)
  const checked = new Set<string>();
  for (const it of a.items) {
    if (checked.has(it.variant)) continue;
    checked.add(it.variant);
    ItemRecord.parse(it);
  }
  folder.write("items.jsonl", lines(a.items, (it) => JSON.stringify(it)));
  folder.write("items.csv", itemsCsvPieces(a.items, [...new Set(report.rubrics.map((r) => r.rubric))]));
  const outcomes = report.variants.flatMap((v) => v.searchOrAnswer.questions.map((q) => ({ variant: v.name, q })));
  folder.write("outcomes.jsonl", lines(outcomes, ({ variant, q }) => JSON.stringify({ variant, ...q }), "\n"));
  for (const r of a.calibration.rubrics) {
    const rel = a.plan.records.get(recordKey(r.record));
    if (rel) folder.writeWith(rel, () => writeRecord(folder.tmp, r.record));
  }
  folder.write("calibration.json", calibrationJson(a.calibration, a.plan.records));
  folder.write("calibration.md", calibrationMarkdown(a.calibration, a.plan.records));
  const summary = renderTerminal(report, { folder: displayPath(folder.path) });
  folder.write("summary.txt", summary);
  folder.write("report.md", renderReportMarkdown(report, a.items));
  folder.onFlush = undefined;
  const pieces = html.finish();
  folder.write("report.html", await Promise.all(pieces));
  folder.write("junit.xml", reportJunit(report));
  const listed = folder.list(["report.json"]);
  if (listed.join("\n") !== report.files.join("\n")) throw new Error(`internal: evaluation files differ from the plan (${listed.join(", ")})`);
  folder.commit("report.json", json(report));
  return summary;
}
