import { basename } from "node:path";
import { checkFloors, formatMissedValue, parseFloors, type Floor, type FloorMiss } from "../../retrieval/floors.js";
import { measureHelp } from "../../retrieval/measures/help.js";
import { defaultMeasures, headlineMeasures, parseCutoffs, parseMeasures, sortMeasures } from "../../retrieval/measures/parse.js";
import type { Measure } from "../../retrieval/measures/types.js";
import { renderMarkdown, renderTable, trecView, writeRetrievalResults, type RetrievalView } from "../../retrieval/report.js";
import { scoreTrecFiles } from "../../retrieval/trec/evaluate.js";
import { formatTrecEval } from "../../retrieval/trec/write.js";
import type { Evaluation } from "../../retrieval/evaluate.js";
import type { VariantDiagnostics } from "../../retrieval/diagnostics/diagnose.js";
import { EXIT, UsageError } from "../errors.js";
import { parseNumber } from "../commands/numbers.js";
import { writeToStdout } from "../stdout.js";

export interface RetrievalFlags {
  cutoffs?: string;
  measure: string[];
  /** Golden-set groupings; undefined: kind (no commander default, so TREC mode can tell it was given). */
  by?: string;
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

/** Whether the output is read by a person (table, md), who gets the headline measures by default. */
const forPeople = (flags: RetrievalFlags) => flags.format === "table" || flags.format === "md";

/**
 * Measures to show and to compute. Shown: `-m`, else the headline measures
 * for a person (table, md) and every trec_eval measure for a program (json,
 * trec). Computed: the shown ones plus any measure a floor names, which is
 * checked but not printed.
 */
export function measuresFor(flags: RetrievalFlags, ks: number[], floors: Floor[]): { shown: Measure[]; all: Measure[] } {
  const shown = flags.measure.length ? parseMeasures(flags.measure, ks) : forPeople(flags) ? headlineMeasures(ks) : defaultMeasures(ks, true);
  return { shown, all: sortMeasures([...shown, ...floors.map((f) => f.measure)]) };
}

/** The hint under a table of headline measures: where the others are. */
const MORE_MEASURES = "more measures (AP, R-Prec, P@k, RR@k, counts): -m all; definitions: --list-measures";

/** Picks the `shown` measures' values out of values computed for `from` (floors may have added measures). */
function picker(from: readonly Measure[], shown: readonly Measure[]): (v: Float64Array) => Float64Array {
  const idx = shown.map((m) => from.findIndex((x) => x.label === m.label));
  if (idx.length === from.length && idx.every((i, j) => i === j)) return (v) => v; // every measure, in order: nothing to pick
  return (v) => {
    const out = new Float64Array(idx.length);
    for (let j = 0; j < idx.length; j++) out[j] = v[idx[j]!]!;
    return out;
  };
}

/** An evaluation with only the shown measures' columns. */
export function project<E extends Evaluation>(ev: E, shown: Measure[]): E {
  const pick = picker(ev.measures, shown);
  return { ...ev, measures: shown, summary: pick(ev.summary), queries: ev.queries.map((q) => ({ ...q, values: pick(q.values) })) };
}

/** A report view with only the shown measures' columns. */
export function projectView(v: RetrievalView, shown: Measure[]): RetrievalView {
  const pick = picker(v.measures, shown);
  return { ...v, measures: shown, summary: v.summary.map((g) => ({ ...g, values: pick(g.values) })), queries: v.queries.map((q) => ({ ...q, values: pick(q.values) })) };
}

export interface Scored {
  view: RetrievalView;
  evaluation: Evaluation;
  valueOf: (label: string) => number | undefined;
}

export function valueGetter(ev: Evaluation): (label: string) => number | undefined {
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
  // a TREC run has one variant and no question kinds: these were ignored without a word
  if (flags.by !== undefined || flags.variant !== undefined) throw new UsageError("--by and --variant apply to golden-set inputs (question kinds and tags, the config's variants); they do not apply to --qrels/--trec-run");
  const level = flags.level === undefined ? 1 : parseNumber("-l", flags.level, "level");
  const { shown, all } = measuresFor(flags, ks, floors);
  const ev = await scoreTrecFiles(flags.qrels, flags.trecRun, { measures: all, level, complete: flags.complete });
  const view = project(ev, shown);
  return [{ view: trecView(view, basename(flags.trecRun)), evaluation: view, valueOf: valueGetter(ev) }];
}

/** The diagnostics section of the golden-set mode, as terminal text or Markdown (empty in TREC mode). */
type Section = (kind: "terminal" | "markdown") => string;

/** Prints the output through `write`: JSON in pieces (it can be large, see writeRetrievalResults), the other formats whole. */
function render(flags: RetrievalFlags, scored: Scored[], misses: { name: string; miss: FloorMiss }[], diagnostics: VariantDiagnostics[], section: Section, write: (text: string) => void): void {
  const opts = { perQuery: flags.perQuery ?? false, fullPrecision: flags.fullPrecision ?? false };
  switch (flags.format) {
    case "trec":
      write(formatTrecEval(scored[0]!.evaluation, { fullPrecision: opts.fullPrecision }));
      return;
    case "json":
      writeRetrievalResults(scored.map((s) => s.view), misses, diagnostics, opts, write);
      return;
    case "md": {
      const hint = flags.measure.length ? "" : `\n_${MORE_MEASURES}_\n`; // a blank line first, or it joins the notes list
      write(renderMarkdown(scored.map((s) => s.view), opts) + hint + (diagnostics.length ? `\n${section("markdown")}` : ""));
      return;
    }
    default: {
      const hint = flags.measure.length ? "" : `(${MORE_MEASURES})\n`;
      write(renderTable(scored.map((s) => s.view), opts) + hint + (diagnostics.length ? `\n${section("terminal")}` : ""));
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
  let section: Section = () => "";
  if (flags.qrels || flags.trecRun) {
    floors = parseFloors(flags.failUnder);
    scored = await runTrecMode(flags, ksFlag ?? [1, 5, 10], floors);
  } else {
    // the golden-set readers (schemas, zod) load only in this mode: TREC mode starts faster without them
    const { runGoldenMode } = await import("./retrieval-golden.js");
    ({ scored, floors, diagnostics, section } = await runGoldenMode(flags, ksFlag));
  }
  const misses = scored.flatMap((s) => checkFloors(floors, s.valueOf).map((miss) => ({ name: s.view.name, miss })));
  writeToStdout((write) => render(flags, scored, misses, diagnostics, section, write));
  // trec output must stay byte-identical to trec_eval's, so its warnings go to stderr
  if (flags.format === "trec") for (const n of scored.flatMap((s) => s.view.notes).filter((n) => n.startsWith("warning: "))) process.stderr.write(`ragjudge: ${n}\n`);
  for (const { name, miss } of misses) {
    process.stderr.write(`ragjudge: floor missed: ${name}: ${miss.label} = ${formatMissedValue(miss)}, below its floor ${miss.min}\n`);
  }
  if (misses.length) process.exitCode = EXIT.failed;
}
