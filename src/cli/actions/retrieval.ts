import { basename } from "node:path";
import { chooseVariants, loadConfig } from "../../golden/config.js";
import { loadGolden, loadVariant, variantNameFromFile, type GoldenSet, type VariantData } from "../../golden/dataset.js";
import { InputError } from "../../golden/errors.js";
import { writeFileAtomic } from "../../golden/files.js";
import { checkFloors, formatMissedValue, parseFloors, type Floor, type FloorMiss } from "../../retrieval/floors.js";
import { measureHelp } from "../../retrieval/measures/help.js";
import { defaultMeasures, headlineMeasures, parseCutoffs, parseMeasures, sortMeasures } from "../../retrieval/measures/parse.js";
import type { Measure } from "../../retrieval/measures/types.js";
import { goldenView, renderMarkdown, renderTable, retrievalResultsJson, trecView, type RetrievalView } from "../../retrieval/report.js";
import { GROUP_BY, scoreRetrieval, type GroupBy } from "../../retrieval/score.js";
import { scoreTrecFiles } from "../../retrieval/trec/evaluate.js";
import { goldenToQrels, pipelineToRun } from "../../retrieval/trec/export.js";
import { formatTrecEval } from "../../retrieval/trec/write.js";
import type { Evaluation } from "../../retrieval/evaluate.js";
import type { VariantDiagnostics } from "../../retrieval/diagnostics/diagnose.js";
import { diagnoseVariants, parsePoolDepth, renderDiagnosticsSection } from "../../retrieval/diagnostics/section.js";
import { EXIT, UsageError } from "../errors.js";
import { explicitFiles } from "../commands/validate.js";

export interface RetrievalFlags {
  cutoffs?: string;
  measure: string[];
  by: string;
  perQuery?: boolean;
  format: "table" | "json" | "md" | "trec";
  failUnder?: string;
  fullPrecision?: boolean;
  config?: string;
  golden?: string;
  chunks?: string;
  output?: string;
  variant?: string;
  qrels?: string;
  trecRun?: string;
  complete: boolean;
  level?: string;
  exportTrecRun?: string;
  exportQrels?: string;
  listMeasures?: boolean;
  misses?: boolean;
  poolDepth?: string;
}



function parseBy(text: string): GroupBy[] {
  if (text.trim() === "none") return [];
  const out: GroupBy[] = [];
  for (const part of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const key = (part === "tag" ? "tags" : part) as GroupBy;
    if (!GROUP_BY.includes(key)) throw new UsageError(`--by: unknown grouping ${JSON.stringify(part)} (use kind, tags, split, or none)`);
    out.push(key);
  }
  return out;
}

/** Whether the output is read by a person (table, md), who gets the headline measures by default. */
const forPeople = (flags: RetrievalFlags) => flags.format === "table" || flags.format === "md";

/**
 * Measures to show and to compute. Shown: `-m`, else the headline measures
 * for a person (table, md) and every trec_eval measure for a program (json,
 * trec). Computed: the shown ones plus any measure a floor names, which is
 * checked but not printed.
 */
function measuresFor(flags: RetrievalFlags, ks: number[], floors: Floor[]): { shown: Measure[]; all: Measure[] } {
  const shown = flags.measure.length ? parseMeasures(flags.measure, ks) : forPeople(flags) ? headlineMeasures(ks) : defaultMeasures(ks, true);
  return { shown, all: sortMeasures([...shown, ...floors.map((f) => f.measure)]) };
}

/** The hint under a table of headline measures: where the others are. */
const MORE_MEASURES = "more measures (AP, R-Prec, P@k, RR@k, counts): -m all; definitions: --list-measures";

/** Picks the `shown` measures' values out of values computed for `from` (floors may have added measures). */
function picker(from: readonly Measure[], shown: readonly Measure[]): (v: Float64Array) => Float64Array {
  const idx = shown.map((m) => from.findIndex((x) => x.label === m.label));
  return (v) => Float64Array.from(idx, (i) => v[i]!);
}

/** An evaluation with only the shown measures' columns. */
function project<E extends Evaluation>(ev: E, shown: Measure[]): E {
  const pick = picker(ev.measures, shown);
  return { ...ev, measures: shown, summary: pick(ev.summary), queries: ev.queries.map((q) => ({ ...q, values: pick(q.values) })) };
}

/** A report view with only the shown measures' columns. */
function projectView(v: RetrievalView, shown: Measure[]): RetrievalView {
  const pick = picker(v.measures, shown);
  return { ...v, measures: shown, summary: v.summary.map((g) => ({ ...g, values: pick(g.values) })), queries: v.queries.map((q) => ({ ...q, values: pick(q.values) })) };
}

interface Scored {
  view: RetrievalView;
  evaluation: Evaluation;
  valueOf: (label: string) => number | undefined;
}

function valueGetter(ev: Evaluation): (label: string) => number | undefined {
  return (label) => {
    const i = ev.measures.findIndex((m) => m.label === label);
    return i < 0 ? undefined : ev.summary[i];
  };
}

async function runTrecMode(flags: RetrievalFlags, ks: number[], floors: Floor[]): Promise<Scored[]> {
  if (!flags.qrels || !flags.trecRun) throw new UsageError("--qrels and --trec-run go together: give both");
  if (flags.golden || flags.chunks || flags.output || flags.config) throw new UsageError("--qrels/--trec-run score a TREC run; do not combine them with --config, --golden, --chunks or --output");
  if (flags.exportQrels || flags.exportTrecRun) throw new UsageError("--export-qrels and --export-trec-run convert golden-set inputs; they do not apply to --qrels/--trec-run");
  if (flags.misses || flags.poolDepth !== undefined) throw new UsageError("--misses and --pool-depth diagnose golden-set inputs (stage lists, anchors); they do not apply to --qrels/--trec-run");
  let level = 1;
  if (flags.level !== undefined) {
    if (!/^\d+$/.test(flags.level)) throw new UsageError(`-l: expected a whole number >= 0, got ${JSON.stringify(flags.level)}`);
    level = Number(flags.level);
  }
  const { shown, all } = measuresFor(flags, ks, floors);
  const ev = await scoreTrecFiles(flags.qrels, flags.trecRun, { measures: all, level, complete: flags.complete });
  const view = project(ev, shown);
  return [{ view: trecView(view, basename(flags.trecRun)), evaluation: view, valueOf: valueGetter(ev) }];
}

interface GoldenInputs {
  golden: GoldenSet;
  variants: VariantData[];
  ks: number[];
  /** The config's floors and the file they came from (for messages). */
  configFloors: Record<string, number>;
  configFile: string | undefined;
  poolDepth: number;
}

function loadGoldenInputs(flags: RetrievalFlags): GoldenInputs {
  const files = explicitFiles(flags);
  if (files) {
    const golden = loadGolden(files.golden);
    const variant = loadVariant({ name: flags.variant ?? variantNameFromFile(files.output), output: files.output, chunks: files.chunks, contextK: 5, stages: { first: [] } }, golden);
    return { golden, variants: [variant], ks: [1, 5, 10], configFloors: {}, configFile: undefined, poolDepth: 50 };
  }
  const cfg = loadConfig(flags.config);
  const chosen = chooseVariants(cfg, flags.variant);
  const golden = loadGolden(cfg.path(cfg.config.golden));
  return { golden, variants: chosen.map((v) => loadVariant(v, golden, cfg.path)), ks: cfg.config.k, configFloors: cfg.config.floors, configFile: cfg.file, poolDepth: cfg.config.poolDepth };
}

function runGoldenMode(flags: RetrievalFlags, ksFlag: number[] | undefined): { scored: Scored[]; floors: Floor[]; diagnostics: VariantDiagnostics[] } {
  if (flags.level !== undefined) throw new UsageError("-l applies to graded qrels (--qrels/--trec-run); golden-set relevance is binary");
  if (!flags.complete) throw new UsageError("--no-complete applies to --qrels/--trec-run; in golden-set mode a question without output always scores 0");
  const inputs = loadGoldenInputs(flags);
  const unanswerable = inputs.golden.questions.filter((q) => !q.answerable).length;
  if (unanswerable === inputs.golden.questions.length) {
    // a mean over no question is no number: printing 0.0000 would read as a failing search
    throw new InputError(inputs.golden.file, undefined, undefined, `no answerable question: retrieval measures score answerable questions only (${unanswerable} unanswerable left out)`);
  }
  const ks = ksFlag ?? inputs.ks;
  const floors = parseFloors(flags.failUnder, inputs.configFloors, inputs.configFile);
  const { shown, all } = measuresFor(flags, ks, floors);
  const by = parseBy(flags.by);
  const single = (what: string) => {
    if (inputs.variants.length !== 1) throw new UsageError(`${what} needs one variant: add --variant NAME (variants: ${inputs.variants.map((v) => v.name).join(", ")})`);
  };
  if (flags.format === "trec") single("--format trec");
  if (flags.format === "trec" && flags.misses) throw new UsageError("--misses does not apply to --format trec, which prints trec_eval's output only");
  const poolDepth = flags.poolDepth === undefined ? inputs.poolDepth : parsePoolDepth(flags.poolDepth);
  if (poolDepth === null) throw new UsageError(`--pool-depth: expected a whole number >= 1, got ${JSON.stringify(flags.poolDepth)}`);
  if (flags.exportTrecRun) {
    single("--export-trec-run");
    const v = inputs.variants[0]!;
    writeFileAtomic(flags.exportTrecRun, pipelineToRun(v.outputs, v.name, { file: v.outputFile, lineOf: v.lineOf }));
    process.stderr.write(`ragjudge: wrote TREC run of variant ${v.name} to ${flags.exportTrecRun}\n`);
  }
  if (flags.exportQrels) {
    single("--export-qrels");
    writeFileAtomic(flags.exportQrels, goldenToQrels(inputs.golden, inputs.variants[0]!.chunks));
    process.stderr.write(`ragjudge: wrote qrels of ${inputs.golden.file} (chunks of variant ${inputs.variants[0]!.name}) to ${flags.exportQrels}\n`);
  }
  const scored = inputs.variants.map((v) => {
    const s = scoreRetrieval(inputs.golden, v, { measures: all, by, k: ks });
    return { view: projectView(goldenView(s), shown), evaluation: project(s.evaluation, shown), valueOf: valueGetter(s.evaluation) };
  });
  const diagnostics = flags.format === "trec" ? [] : diagnoseVariants(inputs.golden, inputs.variants, { ks, poolDepth });
  return { scored, floors, diagnostics };
}

function render(flags: RetrievalFlags, scored: Scored[], misses: { name: string; miss: FloorMiss }[], diagnostics: VariantDiagnostics[]): string {
  const opts = { perQuery: flags.perQuery ?? false, fullPrecision: flags.fullPrecision ?? false };
  switch (flags.format) {
    case "trec":
      return formatTrecEval(scored[0]!.evaluation, { fullPrecision: opts.fullPrecision });
    case "json":
      return retrievalResultsJson(scored.map((s) => s.view), misses, diagnostics, opts);
    case "md": {
      const hint = flags.measure.length ? "" : `\n_${MORE_MEASURES}_\n`; // a blank line first, or it joins the notes list
      return renderMarkdown(scored.map((s) => s.view), opts) + hint + (diagnostics.length ? `\n${renderDiagnosticsSection(diagnostics, "markdown", flags.misses ?? false)}` : "");
    }
    default: {
      const hint = flags.measure.length ? "" : `(${MORE_MEASURES})\n`;
      return renderTable(scored.map((s) => s.view), opts) + hint + (diagnostics.length ? `\n${renderDiagnosticsSection(diagnostics, "terminal", flags.misses ?? false)}` : "");
    }
  }
}

/** `ragjudge retrieval`'s action (see commands/retrieval.ts). */
export async function retrievalAction(flags: RetrievalFlags): Promise<void> {
  if (flags.listMeasures) {
    process.stdout.write(`${measureHelp()}\n`);
    return;
  }
  const ksFlag = flags.cutoffs === undefined ? undefined : parseCutoffs(flags.cutoffs!);
  let scored: Scored[];
  let floors: Floor[];
  let diagnostics: VariantDiagnostics[] = [];
  if (flags.qrels || flags.trecRun) {
    floors = parseFloors(flags.failUnder);
    scored = await runTrecMode(flags, ksFlag ?? [1, 5, 10], floors);
  } else ({ scored, floors, diagnostics } = runGoldenMode(flags, ksFlag));
  const misses = scored.flatMap((s) => checkFloors(floors, s.valueOf).map((miss) => ({ name: s.view.name, miss })));
  process.stdout.write(render(flags, scored, misses, diagnostics));
  // trec output must stay byte-identical to trec_eval's, so its warnings go to stderr
  if (flags.format === "trec") for (const n of scored.flatMap((s) => s.view.notes).filter((n) => n.startsWith("warning: "))) process.stderr.write(`ragjudge: ${n}\n`);
  for (const { name, miss } of misses) {
    process.stderr.write(`ragjudge: floor missed: ${name}: ${miss.label} = ${formatMissedValue(miss)}, below its floor ${miss.min}\n`);
  }
  if (misses.length) process.exitCode = EXIT.failed;
}
