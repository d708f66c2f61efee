/** The golden-set mode of `ragjudge retrieval` (golden set + chunks + pipeline outputs, from the config or explicit files), loaded only in that mode; see retrieval.ts. */
import { chooseVariants, configInputs, loadConfigOr, missingInputs } from "../../golden/config.js";
import { loadGolden, relevantSets, variantNameFromFile, type GoldenSet, type VariantData } from "../../golden/dataset.js";
import { loadVariantsParallel } from "../../golden/load-parallel.js";
import { checkAnchors, type AnchorCheck } from "../../golden/anchors.js";
import { unknownChunkIds, type ChunksFrom } from "../../golden/known-ids.js";
import { InputError, InputErrors } from "../../golden/errors.js";
import { writeFileAtomic } from "../../golden/files.js";
import { outputTarget, type ReadPath } from "../../golden/paths.js";
import type { VariantDiagnostics } from "../../retrieval/diagnostics/diagnose.js";
import { diagnoseVariants, renderDiagnosticsSection } from "../../retrieval/diagnostics/section.js";
import { parseFloors, type Floor, type FloorsSource } from "../../retrieval/floors.js";
import { goldenView } from "../../retrieval/report.js";
import { GROUP_BY, scoreRetrieval, type GroupBy } from "../../retrieval/score.js";
import { goldenToQrels, pipelineToRun } from "../../retrieval/trec/export.js";
import { explicitFiles } from "../commands/validate.js";
import { UsageError } from "../errors.js";
import { parseNumber } from "../commands/numbers.js";
import { nameList, refuseNoneInList } from "./lists.js";
import { measuresFor, project, projectView, valueGetter, type RetrievalFlags, type Scored } from "./retrieval.js";

function parseBy(text: string): GroupBy[] {
  if (text.trim() === "none") return [];
  const out: GroupBy[] = [];
  const parts = nameList("--by", text, "grouping (kind, tags, split or none)");
  refuseNoneInList(parts, text);
  for (const part of parts) {
    const key = (part === "tag" ? "tags" : part) as GroupBy;
    if (!GROUP_BY.includes(key)) throw new UsageError(`--by: unknown grouping ${JSON.stringify(part)} (use kind, tags, split, or none)`);
    out.push(key);
  }
  return out;
}

interface GoldenInputs {
  golden: GoldenSet;
  variants: VariantData[];
  /** The anchor check made while the output loaded, when it covered exactly the loaded variants' chunks (one variant). */
  anchors: AnchorCheck | undefined;
  ks: number[];
  /** The config's floors and where they were written (for messages). */
  configFloors: Record<string, number>;
  floorsSource: FloorsSource | undefined;
  /** Where a chunks file is named in this mode (for the hint when there is none). */
  chunksFrom: ChunksFrom;
  poolDepth: number;
  /** Where `--export-trec-run` and `--export-qrels` write, checked before anything was loaded. */
  exports: Exports;
}

interface Exports {
  trecRun?: string;
  qrels?: string;
}

/**
 * Checks where the exports go before any input is loaded: neither may
 * replace a file this command reads or the config names (`--export-qrels
 * questions.jsonl` replaced the golden set), nor the other export.
 */
function exportTargets(flags: RetrievalFlags, reads: readonly ReadPath[]): Exports {
  const trecRun = flags.exportTrecRun === undefined ? undefined : outputTarget(flags.exportTrecRun, reads);
  const qrels = flags.exportQrels === undefined ? undefined : outputTarget(flags.exportQrels, reads);
  if (trecRun !== undefined && trecRun === qrels) throw new UsageError(`--export-trec-run and --export-qrels name the same file (${flags.exportQrels}): give each its own`);
  return { ...(trecRun !== undefined ? { trecRun } : {}), ...(qrels !== undefined ? { qrels } : {}) };
}

/**
 * Loads the inputs, each pipeline output on a worker thread while this one
 * reads the chunks, checks the anchors against them and computes the
 * relevant sets (both remembered per chunk index, so the check and the
 * scoring after the load take them): the three take about as long as the
 * output's parse.
 */
async function loadGoldenInputs(flags: RetrievalFlags): Promise<GoldenInputs> {
  const files = explicitFiles(flags);
  const checks: { chunks: VariantData["chunks"]; chunksFile: string | undefined; check: AnchorCheck }[] = [];
  const early = (golden: GoldenSet) => (v: { chunks: VariantData["chunks"]; chunksFile: string | undefined }) => {
    checks.push({ chunks: v.chunks, chunksFile: v.chunksFile, check: checkAnchors(golden, [v]) });
    return relevantSets(golden, v.chunks);
  };
  // One variant whose chunks are those checked early (passages given as text would make another index): that check
  // is the whole check (at 50,000 questions, 0.2 s not spent again); with more variants the check runs over all.
  const earlyCheck = (variants: readonly VariantData[]) => {
    const [c] = checks;
    return variants.length === 1 && checks.length === 1 && c!.chunks === variants[0]!.chunks && c!.chunksFile === variants[0]!.chunksFile ? c!.check : undefined;
  };
  if (files) {
    const exports = exportTargets(flags, [
      { path: files.golden, what: "the golden set" },
      { path: files.output, what: "the pipeline output" },
      ...(files.chunks ? [{ path: files.chunks, what: "the chunks file" }] : []),
    ]);
    const golden = loadGolden(files.golden);
    const variants = await loadVariantsParallel([{ name: flags.variant ?? variantNameFromFile(files.output), output: files.output, ...(files.chunks ? { chunks: files.chunks } : {}), contextK: 5, stages: { first: [] } }], golden, undefined, early(golden));
    return { golden, variants, anchors: earlyCheck(variants), ks: [1, 5, 10], configFloors: {}, floorsSource: undefined, chunksFrom: "flag", poolDepth: 50, exports };
  }
  const cfg = loadConfigOr(flags.config, "name the files: --golden FILE --output FILE (and --chunks FILE), or --qrels FILE --trec-run FILE for a TREC run");
  const exports = exportTargets(flags, configInputs(cfg, ["config", "golden", "variants"]));
  const missing = missingInputs(cfg);
  if (missing.length) throw new InputErrors(missing);
  const chosen = chooseVariants(cfg, flags.variant);
  const golden = loadGolden(cfg.path(cfg.config.golden));
  const variants = await loadVariantsParallel(chosen, golden, cfg.path, early(golden));
  return { golden, variants, anchors: earlyCheck(variants), ks: cfg.config.k, configFloors: cfg.config.floors, floorsSource: cfg, chunksFrom: "config", poolDepth: cfg.config.poolDepth, exports };
}

/** Scores the golden-set inputs; `section` renders the diagnostics (misses, pool recall) for people. */
export async function runGoldenMode(flags: RetrievalFlags, ksFlag: number[] | undefined): Promise<{ scored: Scored[]; floors: Floor[]; diagnostics: VariantDiagnostics[]; section: (kind: "terminal" | "markdown") => string }> {
  if (flags.level !== undefined) throw new UsageError("-l applies to graded qrels (--qrels/--trec-run); golden-set relevance is binary");
  if (!flags.complete) throw new UsageError("--no-complete applies to --qrels/--trec-run; in golden-set mode a question without output always scores 0");
  const inputs = await loadGoldenInputs(flags);
  // An anchor that breaks the anchor rule would be scored as if it meant something: refuse, as validate does.
  const anchors = inputs.anchors ?? checkAnchors(inputs.golden, inputs.variants);
  // An unknown chunk id (a typo, the wrong chunks file) would score as a miss: refuse, as validate does.
  const unknown = new Map(inputs.variants.flatMap((v) => unknownChunkIds(inputs.golden, v, inputs.chunksFrom)).map((e) => [e.message, e]));
  if (anchors.problems.length || unknown.size) throw new InputErrors([...anchors.problems, ...unknown.values()]);
  for (const w of anchors.warnings) process.stderr.write(`warning: ${w.message}\n`);
  const unanswerable = inputs.golden.questions.filter((q) => !q.answerable).length;
  if (unanswerable === inputs.golden.questions.length) {
    // a mean over no question is no number: printing 0.0000 would read as a failing search
    throw new InputError(inputs.golden.file, undefined, undefined, `no answerable question: retrieval measures score answerable questions only (${unanswerable} unanswerable left out)`);
  }
  const ks = ksFlag ?? inputs.ks;
  const floors = parseFloors(flags.failUnder, inputs.configFloors, inputs.floorsSource);
  const { shown, all } = measuresFor(flags, ks, floors);
  const by = parseBy(flags.by ?? "kind");
  const single = (what: string) => {
    if (inputs.variants.length !== 1) throw new UsageError(`${what} needs one variant: add --variant NAME (variants: ${inputs.variants.map((v) => v.name).join(", ")})`);
  };
  if (flags.format === "trec") single("--format trec");
  if (flags.format === "trec" && flags.misses) throw new UsageError("--misses does not apply to --format trec, which prints trec_eval's output only");
  const poolDepth = flags.poolDepth === undefined ? inputs.poolDepth : parseNumber("--pool-depth", flags.poolDepth, "poolDepth");
  const { trecRun, qrels } = inputs.exports;
  if (trecRun !== undefined) {
    single("--export-trec-run");
    const v = inputs.variants[0]!;
    writeFileAtomic(trecRun, pipelineToRun(v.outputs, v.name, { file: v.outputFile, lineOf: v.lineOf }));
    process.stderr.write(`ragjudge: wrote TREC run of variant ${v.name} to ${flags.exportTrecRun}\n`);
  }
  if (qrels !== undefined) {
    single("--export-qrels");
    writeFileAtomic(qrels, goldenToQrels(inputs.golden, inputs.variants[0]!.chunks));
    process.stderr.write(`ragjudge: wrote qrels of ${inputs.golden.file} (chunks of variant ${inputs.variants[0]!.name}) to ${flags.exportQrels}\n`);
  }
  const scored = inputs.variants.map((v) => {
    const s = scoreRetrieval(inputs.golden, v, { measures: all, by, k: ks });
    return { view: projectView(goldenView(s), shown), evaluation: project(s.evaluation, shown), valueOf: valueGetter(s.evaluation) };
  });
  const diagnostics = flags.format === "trec" ? [] : diagnoseVariants(inputs.golden, inputs.variants, { ks, poolDepth });
  return { scored, floors, diagnostics, section: sectionOf(diagnostics, flags.misses ?? false) };
}

/**
 * The diagnostics section's renderer, made outside {@link runGoldenMode}: a
 * closure made inside it would share the scope its other closures capture,
 * which holds the inputs, and so keep the chunks and pipeline outputs (630
 * MB at 50,000 questions over 500,000 chunks) alive while the output is written.
 */
function sectionOf(diagnostics: VariantDiagnostics[], misses: boolean): (kind: "terminal" | "markdown") => string {
  return (kind) => renderDiagnosticsSection(diagnostics, kind, misses);
}

