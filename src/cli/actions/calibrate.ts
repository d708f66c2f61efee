import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { calibrate } from "../../calibration/calibrate.js";
import { knownRubricNames, wordingsOf } from "../../calibration/context.js";
import { loadDraws } from "../../calibration/draws.js";
import { firstLabel, loadLabels } from "../../calibration/labels.js";
import { loadJsonl } from "../../golden/jsonl.js";
import { loadRecords, recordKey, writeRecordIfChanged, type RecordWrite } from "../../calibration/record.js";
import { renderJson, renderMarkdown, renderTable, type Format } from "../../calibration/render.js";
import { loadConfig, resolveRubrics } from "../../golden/config.js";
import { loadGolden } from "../../golden/dataset.js";
import { InputError, InputErrors } from "../../golden/errors.js";
import { Judgment } from "../../golden/schema/items.js";
import { EXIT } from "../errors.js";
import { labelsToWrite } from "./example-labels.js";
import { parseNumber } from "../commands/numbers.js";
import { judgeFirst } from "../../golden/project-args.js";

export interface CalibrateOptions {
  judgments?: string;
  labels?: string;
  config?: string;
  format: Format;
  seed: string;
  reps: string;
  write: boolean;
  strict?: boolean;
  requireTrusted?: boolean;
}

/** `ragjudge calibrate`'s action (see commands/calibrate.ts). */
export function calibrateAction(opts: CalibrateOptions): void {
  const seed = parseNumber("--seed", opts.seed, "randomSeed");
  const reps = parseNumber("--reps", opts.reps, "bootstrapReps");
  const resolved = loadConfig(opts.config);
  const { config } = resolved;
  // Records are written into the labels folder (not with --no-write): never the installed example's.
  const labelsDir = opts.write ? labelsToWrite(resolved, opts.labels, "add --no-write to print the example's calibration without recording it") : opts.labels ?? resolved.path(config.labels);
  const judgmentsFile = opts.judgments ?? resolved.outPath(`${config.cacheDir}/judgments.jsonl`);
  if (!existsSync(judgmentsFile)) {
    throw new InputError(judgmentsFile, undefined, undefined, `judgments file not found: ${judgeFirst(resolved)}, or pass --judgments FILE`);
  }
  const judgments = loadJsonl(judgmentsFile, Judgment).map((r) => r.value);
  // A folder named on the command line must exist: a mistyped path is not "no labels yet".
  if (opts.labels !== undefined && !existsSync(labelsDir)) throw new InputError(labelsDir, undefined, undefined, "labels folder not found");
  const book = loadLabels(labelsDir);
  const draws = loadDraws(labelsDir);
  // Existing records must be sound: a broken or renamed one (it could be taken for another judge's) is an error, not overwritten in silence.
  loadRecords(labelsDir);
  const goldenFile = resolved.path(config.golden);
  const warnings: string[] = [];
  let questions;
  if (existsSync(goldenFile)) questions = loadGolden(goldenFile).byId;
  else warnings.push(`golden set ${goldenFile} not found: no by-kind and by-tag tables`);
  const report = calibrate({
    judgments,
    // Relative to the config's folder, so a committed record names no machine's absolute path.
    judgmentsFile: { file: relative(resolved.root, resolve(judgmentsFile)) || judgmentsFile },
    book,
    draws,
    questions,
    trust: config.trust,
    knownRubrics: knownRubricNames(resolved),
    rubrics: resolveRubrics(resolved),
    wordings: wordingsOf(resolved),
    seed,
    reps,
  });
  report.warnings.unshift(...warnings);
  if (opts.strict) {
    const problems = [
      ...report.unpaired.stale.map((i) => [i, "inputHash", "stale label: the judged evidence changed since labelling (input hash differs)"] as const),
      ...report.unpaired.unknownItem.map((i) => [i, "question", "label for an item no judgment covers (no verdict for this variant, question and unit)"] as const),
      ...report.unpaired.unknownRubric.map((i) => [i, "rubric", "label for a rubric no judgment covers"] as const),
    ].map(([i, field, why]) => {
      const l = firstLabel(i);
      return new InputError(l.file, l.line, field, why);
    });
    if (problems.length) throw new InputErrors(problems);
  }
  // Every record was validated when built; each is written atomically, and only when
  // something but its time changed, so a committed record does not churn on every run.
  const written = new Map<string, RecordWrite>();
  if (opts.write) {
    for (const r of report.rubrics) {
      if (!r.hasLabels) continue;
      written.set(recordKey(r.record), writeRecordIfChanged(labelsDir, r.record));
    }
  }
  const render = opts.format === "json" ? renderJson : opts.format === "md" ? renderMarkdown : renderTable;
  process.stdout.write(render(report, written));
  const untrusted = report.rubrics.filter((r) => !r.trust.trusted);
  if (opts.requireTrusted && untrusted.length) {
    // as run says it: a CI log shows why the step failed without scrolling the tables
    process.stderr.write(`ragjudge: untrusted rubric${untrusted.length === 1 ? "" : "s"} under --require-trusted: ${untrusted.map((r) => `${r.group.rubric} (fingerprint ${r.group.fingerprint.slice(0, 12)})`).join(", ")}\n`);
    process.exitCode = EXIT.failed;
  }
}
