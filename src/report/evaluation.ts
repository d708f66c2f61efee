import { join, resolve } from "node:path";
import { calibrate } from "../calibration/calibrate.js";
import { knownRubricNames, wordingsOf } from "../calibration/context.js";
import { loadDraws } from "../calibration/draws.js";
import { loadLabels } from "../calibration/labels.js";
import { givenLabelsFolder } from "../calibration/labels-folder.js";
import { loadRecords } from "../calibration/record.js";
import { DEFAULT_REPS, DEFAULT_SEED } from "../calibration/stats/index.js";
import { describeRubrics, loadConfig, missingInputs, resolveRubrics } from "../golden/config.js";
import { BOUNDS, requireWithin } from "../golden/bounds.js";
import { copyFileAtomic } from "../golden/files.js";
import { displayPath, InputErrors } from "../golden/errors.js";
import { forgetKeptLoads } from "../golden/jsonl.js";
import { checkFolder } from "../golden/paths.js";
import { validateInputs } from "../golden/validate.js";
import { loadJudgeInputs } from "../judge/items/inputs.js";
import type { ProgressState } from "../judge/schedule/run.js";
import { resolveJudge, type JudgeFlags } from "../judge/judges/settings.js";
import { summarise } from "../judge/summary/summary.js";
import { ambiguityVerdicts, ANCHOR_AMBIGUITY_RUBRIC } from "../retrieval/diagnostics/ambiguity.js";
import { diagnoseVariants } from "../retrieval/diagnostics/section.js";
import { checkFloors, parseFloors } from "../retrieval/floors.js";
import { defaultMeasures, sortMeasures } from "../retrieval/measures/parse.js";
import { overallValue, scoreRetrieval } from "../retrieval/score.js";
import { assembleReport, type RunFindings } from "./build/report.js";
import { calibrateHint, suggestedAnnotator } from "./next.js";
import { rubricReports } from "./build/rubrics.js";
import { configEvaluationsDir, EvaluationFolder } from "./folder.js";
import { buildItems } from "./items/build.js";
import { searchOrAnswer } from "./join.js";
import { checkJudgeSetup, judgeItems } from "./run-judge.js";
import { prepareClaimItems } from "../judge/claims/prepare.js";
import type { ReportJson } from "./schema.js";
import { startBackground } from "./background.js";
import { planFiles, writeEvaluation } from "./write.js";
import { checkPanelSetup, mainJudgeOf } from "../judge/judges/panel.js";
import { panelFigures } from "../calibration/panel.js";
import { withPanelHints } from "./panel/hints.js";
import { judgePanel, PANEL_JUDGMENTS, panelErrors, panelJson, panelJudgmentsText } from "./panel/run.js";

/** Options of {@link runEvaluation}; every one is optional. */
export interface RunEvaluationOptions {
  /** Config file (default: ./ragjudge.config.json; --example: the shipped example). */
  config?: string;
  /** Working directory for the config look-up and relative options (default: process.cwd()). */
  cwd?: string;
  /** Evaluation name in the folder name (default: the config's `name`). */
  name?: string;
  /** Where evaluation folders go (default: the config's `evaluationsDir`). */
  evaluationsDir?: string;
  /** The LLM judge's cache folder (default: the config's `cacheDir`, shared with `ragjudge judge`). */
  cacheDir?: string;
  /** Labels folder the judge is calibrated against (default: the config's `labels`); it must exist. Only read. */
  labels?: string;
  /** Fail (exit 1) when a rubric is untrusted. */
  requireTrusted?: boolean;
  /** Extra floors, `R@10=0.7,RR=0.5`, added to the config's (the flag wins). */
  failUnder?: string;
  /** Judge overrides, as `ragjudge judge` takes them. */
  judge?: JudgeFlags;
  /** Bootstrap seed and replicates of calibration and corrected rates. */
  seed?: number;
  reps?: number;
  /** Clock for the folder name (tests). */
  now?: () => Date;
  /** Status lines (judge start, mode switches), each ending in a newline. */
  log?: (line: string) => void;
  /** Progress of the LLM judge's calls (not called for the baseline). */
  onProgress?: (p: Readonly<ProgressState>) => void;
  /** Called as each stage ends, with its wall time (for `npm run bench:run`). */
  onStage?: (stage: RunStage, ms: number) => void;
}

/** The stages of {@link runEvaluation}, in order. */
export type RunStage = "validate" | "load" | "judge" | "score" | "diagnose" | "calibrate" | "join" | "write";

/** What a run produced. The folder exists and is complete. */
export interface EvaluationResult {
  /** The evaluation folder (absolute). */
  folder: string;
  report: ReportJson;
  /** The terminal summary (also in summary.txt). */
  summary: string;
  /** True when a floor was missed or, with requireTrusted, a rubric is untrusted: exit 1. */
  failed: boolean;
  /** Why it failed, one line each. */
  failures: string[];
  /** Citation warnings and notes from validation. */
  warnings: string[];
  /** The run's verdicts, also written to `<cacheDir>/judgments.jsonl`, where `sample`, `review` and `calibrate` read them. */
  judgmentsFile: string;
  /** Error verdicts left (not yes or no): the judge did not finish (exit 4 unless errors are allowed). */
  errors: number;
  /** Who the next commands and the items' review commands name as the labeller ({@link suggestedAnnotator}). */
  annotator: string;
}

/**
 * Runs a whole evaluation, the library behind `ragjudge run`: loads the
 * config (the shipped example when there is none), validates every input
 * first (problems throw InputErrors before anything is written; citation
 * problems are warnings), judges every item (the same judge, cache and
 * items as `ragjudge judge`), scores retrieval and diagnoses misses per
 * variant (feeding anchor-ambiguity verdicts in when that rubric is judged),
 * calibrates every judged rubric and fingerprint against the labels folder
 * (the same code as `ragjudge calibrate`) and applies the trust gate, joins
 * retrieval with the answer verdicts (search or answering), and writes the
 * evaluation folder `<evaluationsDir>/<UTC time>-<name>/` with every artifact
 * and report. The folder is built hidden and renamed into place at the end:
 * it is complete or absent. Its numbers meet the bounds of `ragjudge run`'s
 * flags (golden/bounds.ts): a `seed` or `reps` outside them throws a
 * RangeError before anything is read, a `judge` override once the config is
 * ({@link resolveJudge}).
 *
 * @example
 * const r = await runEvaluation({ evaluationsDir: "/tmp/evals" });
 * console.log(r.summary); // r.failed: a floor missed, or an untrusted rubric under requireTrusted
 */
export async function runEvaluation(options: RunEvaluationOptions = {}): Promise<EvaluationResult> {
  requireWithin("seed", options.seed, BOUNDS.randomSeed);
  requireWithin("reps", options.reps, BOUNDS.bootstrapReps);
  const started = Date.now();
  let stageStart = performance.now();
  const stage = (name: RunStage) => {
    const now = performance.now();
    options.onStage?.(name, now - stageStart);
    stageStart = now;
  };
  const time = options.now?.() ?? new Date();
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? (() => {});
  const resolved = loadConfig(options.config, cwd);
  const { config } = resolved;
  const settings = resolveJudge({ ...config, judge: mainJudgeOf(config) }, options.judge ?? {});
  // every panel judge's endpoint and key too, before the main judge makes a call
  if (config.judges) checkPanelSetup(config.judges, config);
  const seed = options.seed ?? DEFAULT_SEED;
  const reps = options.reps ?? DEFAULT_REPS;
  // Where the run writes, checked before any work: a file named as a folder fails now, not after judging.
  const cacheDir = checkFolder(options.cacheDir ? resolve(cwd, options.cacheDir) : resolved.outPath(config.cacheDir), "the cache folder");
  const evaluationsDir = checkFolder(options.evaluationsDir ? resolve(cwd, options.evaluationsDir) : configEvaluationsDir(resolved), "the evaluations folder");
  // a folder named by hand that is not there, a file, unreadable, or the installed package's own: bad input before any work
  const labelsDir = options.labels !== undefined ? givenLabelsFolder(options.labels, cwd) : resolved.path(config.labels);

  const missing = missingInputs(resolved);
  if (missing.length) throw new InputErrors(missing);
  const validation = validateInputs({
    golden: resolved.path(config.golden),
    variants: config.variants.map((v) => ({ name: v.name, chunks: v.chunks === undefined ? undefined : resolved.path(v.chunks), output: resolved.path(v.output), contextK: v.contextK, stages: v.stages })),
    citations: "warn",
    heldout: config.trust.heldout,
    keepForLoad: true, // loadJudgeInputs below then reads no file twice
  });
  if (validation.problems.length) {
    forgetKeptLoads();
    throw new InputErrors(validation.problems);
  }
  stage("validate");
  const warnings = [...validation.warnings.map((w) => `warning: ${w.message}`), ...validation.notes.map((n) => `note: ${n}`)];
  const floors = parseFloors(options.failUnder, config.floors, resolved);

  let inputs;
  try {
    inputs = loadJudgeInputs(resolved);
  } finally {
    forgetKeptLoads(); // whatever the loads did not take
  }
  const { golden, variants, rubrics, itemSet } = inputs;
  log(`${describeRubrics(inputs.rubricsSource, rubrics.map((r) => r.name))}\n`);
  checkJudgeSetup(settings, rubrics);
  const book = loadLabels(labelsDir);
  const draws = loadDraws(labelsDir);
  const records = loadRecords(labelsDir);
  const wordings = wordingsOf(resolved);
  stage("load");
  // a second thread: hashes the inputs for report.json while the judge runs, later compresses the page's evidence
  const background = startBackground();
  try {
    const inputFiles = [resolved.file, golden.file, ...variants.flatMap((v) => (v.chunksFile === undefined ? [v.outputFile] : [v.outputFile, v.chunksFile])), ...rubrics.map((r) => r.file)];
    const hashing = Promise.all([...new Set(inputFiles)].map(async (file) => [file, await background.hashFile(file)] as const));

    // The baseline judges in milliseconds: a progress display would only flicker.
    const onProgress = settings.kind === "openai" ? options.onProgress : undefined;
    // Claim-level faithfulness with the claims rubric: the judge model extracts the claims first (judge/claims).
    const { items: judged } = await prepareClaimItems(inputs, settings, cacheDir, log);
    const step = await judgeItems({ settings, items: judged, rubrics, cacheDir, log, prices: config.prices, ...(onProgress ? { onProgress } : {}) });
    const judgments = step.result.judgments;
    // A judge panel (config `judges`): every judge side by side, after the main judge.
    const panelRuns = config.judges ? await judgePanel({ config, items: judged, rubrics, cacheDir, log, configFile: displayPath(resolved.file) }) : undefined;
    stage("judge");

    // Every mean measure at every k, plus any a floor names (sortMeasures drops the repeats).
    const measures = sortMeasures([...defaultMeasures(config.k, false), ...floors.map((f) => f.measure)]);
    const scores = variants.map((v) => scoreRetrieval(golden, v, { measures, by: ["kind", "tags"], k: config.k }));
    stage("score");
    const ambiguityJudged = rubrics.some((r) => r.name === ANCHOR_AMBIGUITY_RUBRIC);
    const ambiguity = ambiguityJudged ? new Map(variants.map((v) => [v.name, ambiguityVerdicts(judgments, v.name, "judgments.jsonl")])) : undefined;
    const diagnostics = diagnoseVariants(golden, variants, { ks: config.k, poolDepth: config.poolDepth, ...(ambiguity ? { ambiguity } : {}) });
    stage("diagnose");
    const floorResults = scores.flatMap((s) => {
      const valueOf = (label: string) => overallValue(s, label);
      const misses = checkFloors(floors, valueOf);
      return floors.map((f) => ({ variant: s.variant, label: f.measure.label, min: f.min, value: valueOf(f.measure.label), miss: misses.find((m) => m.label === f.measure.label) }));
    });

    const judgmentsText = judgments.map((j) => JSON.stringify(j)).join("\n") + (judgments.length ? "\n" : "");
    const calibration = calibrate({
      judgments,
      judgmentsFile: { file: "judgments.jsonl" },
      book,
      draws,
      questions: golden.byId,
      trust: config.trust,
      knownRubrics: knownRubricNames(resolved),
      rubrics: resolveRubrics(resolved),
      wordings,
      seed,
      reps,
      time: time.toISOString(),
      records,
    });
    stage("calibrate");
    const plan = planFiles(calibration);
    // the panel's verdicts are copied to the cache folder too: its advice to calibrate names that copy, which stays
    const panelFile = join(cacheDir, PANEL_JUDGMENTS);
    const panel = panelRuns ? panelJson(panelRuns, withPanelHints(panelFigures({ judges: panelRuns, book, draws, records, wordings, questions: golden.byId, trust: config.trust, seed, reps, time: time.toISOString() }), resolved, options.labels, panelFile)) : undefined;
    if (panel) plan.files = [...plan.files, PANEL_JUDGMENTS].sort();
    const searchOrAnswerJson = variants.map((v) => searchOrAnswer(golden, v, judgments, rubrics.map((r) => r.name)));
    // each trust line's advice to calibrate names the project, the --labels folder and, with --cache-dir, where the run's verdicts are (it works as printed)
    const rubricJson = rubricReports({
      judgments, rubrics, variants: variants.map((v) => v.name), golden, calibration, book, draws, wordings, trust: config.trust,
      requireCitations: config.requireCitations, recordFiles: plan.records, seed, reps,
    }).map((r) => ({ ...r, trust: { ...r.trust, message: calibrateHint(resolved, options.labels, r.trust.message, options.cacheDir !== undefined ? join(options.cacheDir, "judgments.jsonl") : undefined) } }));
    const figures = summarise({ judgments, golden, rubrics, requireCitations: config.requireCitations, skipped: itemSet.skipped, usage: step.backend.kind === "llm" ? step.result.usage : undefined });
    stage("join");

    const hashes = new Map<string, string>();
    for (const [file, hash] of await hashing) if (hash !== undefined) hashes.set(file, hash);
    const folder = EvaluationFolder.start(evaluationsDir, options.name ?? config.name, time);
    let report: ReportJson;
    let summary: string;
    try {
      const findings: RunFindings = {
        resolved, name: options.name ?? config.name, folder: folder.name, time, durationMs: Date.now() - started,
        settings, backend: step.backend, golden, variants, rubrics, judgments, usage: step.result.usage, figures: figures.figures,
        scores, diagnostics, ambiguityJudged, searchOrAnswer: searchOrAnswerJson, rubricReports: rubricJson, rubricsSource: inputs.rubricsSource, book, warnings,
        floors: floorResults, requireTrusted: options.requireTrusted ?? false, files: plan.files, hashes,
      };
      report = assembleReport(findings);
      if (panel) report.panel = panel;
      const chunksOf = new Map(variants.map((v) => [v.name, v.chunks]));
      const items = buildItems({
        report, golden, variants, judgments, diagnostics, book,
        review: { config: report.config.file, judgments: displayPath(join(folder.path, "judgments.jsonl")), annotator: suggestedAnnotator(book.history) },
      });
      summary = await writeEvaluation(folder, {
        report, resolved, settings, judgeFlags: options.judge ?? {}, cacheDir, evaluationsDir, fingerprints: step.fingerprints,
        validation, scores, diagnostics, judgmentsText, summary: figures, ...(panelRuns ? { panelJudgmentsText: panelJudgmentsText(panelRuns) } : {}), calibration, plan, items,
        chunkOf: (variant, id) => chunksOf.get(variant)?.byId.get(id),
      }, background);
    } catch (e) {
      folder.discard();
      throw e;
    }
    // Where `sample`, `review` and `calibrate` look by default, so the next commands work as printed.
    const judgmentsFile = join(cacheDir, "judgments.jsonl");
    copyFileAtomic(join(folder.path, "judgments.jsonl"), judgmentsFile);
    if (panelRuns) copyFileAtomic(join(folder.path, PANEL_JUDGMENTS), join(cacheDir, PANEL_JUDGMENTS));
    stage("write");
    return { folder: folder.path, report, summary, failed: report.gate.failures.length > 0, failures: report.gate.failures, warnings, judgmentsFile, errors: report.judgeTotals.errors + (panelRuns ? panelErrors(panelRuns) : 0), annotator: suggestedAnnotator(book.history) };
  } finally {
    await background.close();
  }
}
