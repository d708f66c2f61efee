/**
 * `npm run attribution:baseline`: measures the offline baseline judge against
 * real human labels, in one run, side by side:
 *
 * - the learned support model (the default for faithfulness and citation
 *   accuracy), by nested cross-validation: each item is judged by a model
 *   whose weights and lambda were fitted without its fold (crossval.ts);
 * - the previous coverage rule (`support: "rule"`), which has nothing to fit
 *   here (its one threshold was chosen in 2026 on 200 of these rows);
 * - the token-overlap anchor, its threshold fitted inside each fold.
 *
 * It converts ../shared/data/attribution-dev-full.jsonl (the AttributionBench
 * development split, 1,198 claims) to ragjudge's formats in a temporary
 * folder, reads the items and imported labels back, judges every item, and
 * prints Cohen's kappa with its 95% interval, accuracy and macro-F1, overall
 * and by source dataset, and the learned model's gain over the rule with a
 * paired bootstrap interval.
 *
 * Flags: `--data FILE` (another copy of the data), `--keep` (keep the
 * converted folder and print its path), `--sweep` (re-run the threshold sweep
 * of the previous rule on the tuning half of the data file; with
 * `--data ../shared/data/attribution-dev.jsonl` it reproduces the sweep that
 * chose `supportCoverage`).
 *
 * Without the data (a user's clone has no ../shared) it prints one line and
 * exits 0.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { reportError } from "../../src/cli/errors.js";
import { InputError, InputErrors } from "../../src/golden/errors.js";
import { hashJson } from "../../src/golden/hash.js";
import { loadJsonl } from "../../src/golden/jsonl.js";
import { Label } from "../../src/golden/schema/items.js";
import {
  BASELINE_VERSION, type BaselineSupport, DEFAULT_THRESHOLDS, SUPPORT_MODEL, baselineFingerprint, createBaselineJudge,
} from "../../src/judge/baseline/index.js";
import { fitOverlapThreshold, tokenOverlap } from "./anchor.js";
import { ANNOTATOR, ConvertedItem, convertFile } from "./convert.js";
import { FOLDS, FOLD_SEED, nestedModels, questionFolds, trainingRows } from "./crossval.js";
import { dataFileOrSkip, flagValue, loadAttributionRows } from "./data.js";
import { type Agreement, type JudgedItem, SUPPORT_GRID, agreement, chooseThreshold, kappaDifference, sweep } from "./measure.js";

/** Reads back what the converter wrote and pairs every label with its item on key and input hash. */
function readBack(dir: string): ConvertedItem[] {
  const itemsFile = join(dir, "items.jsonl");
  const labelsFile = join(dir, "labels", `${ANNOTATOR}.jsonl`);
  const items = loadJsonl(itemsFile, ConvertedItem);
  const labels = loadJsonl(labelsFile, Label);
  const byKey = new Map(items.map(({ value }) => [JSON.stringify(value.key), value]));
  const problems: InputError[] = [];
  for (const { line, value } of items) {
    if (hashJson(value.evidence) !== value.inputHash) problems.push(new InputError(itemsFile, line, "inputHash", "does not match the evidence"));
  }
  for (const { line, value: l } of labels) {
    const item = byKey.get(JSON.stringify({ variant: l.variant, question: l.question, rubric: l.rubric, unit: l.unit }));
    if (!item) problems.push(new InputError(labelsFile, line, "question", `no item ${l.question} ${l.rubric} ${l.unit}`));
    else if (item.inputHash !== l.inputHash) problems.push(new InputError(labelsFile, line, "inputHash", "stale: does not match the item's evidence"));
    else if (item.label !== l.label) problems.push(new InputError(labelsFile, line, "label", "differs from the item's label"));
  }
  if (labels.length !== items.length) problems.push(new InputError(labelsFile, undefined, undefined, `${labels.length} labels for ${items.length} items`));
  if (problems.length > 0) throw new InputErrors(problems);
  return items.map((i) => i.value);
}

function printSweep(items: readonly ConvertedItem[]): void {
  const tune = items.filter((i) => i.half === "tune" && i.key.rubric === "faithfulness").map((i) => ({ ...i, rubric: i.key.rubric }));
  const rows = sweep(tune, SUPPORT_GRID, (t) => createBaselineJudge({ ...DEFAULT_THRESHOLDS, supportCoverage: t }, RULE));
  const chosen = chooseThreshold(rows);
  console.log(`\nSweep of the previous rule's supportCoverage on the tuning half only (faithfulness, n = ${tune.length}); rule: max kappa, then min |TPR - TNR|, then lower:`);
  for (const r of rows) {
    const mark = r === chosen ? "  <- chosen" : "";
    console.log(`  ${r.threshold.toFixed(2)}  kappa ${r.kappa?.toFixed(3) ?? "n/a"}  TPR ${r.tpr?.toFixed(2) ?? "n/a"}  TNR ${r.tnr?.toFixed(2) ?? "n/a"}  accuracy ${r.accuracy?.toFixed(3) ?? "n/a"}${mark}`);
  }
  const same = chosen?.threshold === DEFAULT_THRESHOLDS.supportCoverage;
  console.log(`  shipped supportCoverage ${DEFAULT_THRESHOLDS.supportCoverage}: ${same ? "matches the rule's choice" : `DIFFERS from the rule's choice ${chosen?.threshold}: update thresholds.ts and bump BASELINE_VERSION`}`);
}

/** The previous coverage rule, measured beside the learned model. */
const RULE: BaselineSupport = { support: "rule" };
const SOURCES_OF = (items: readonly { dataset: string }[]) => [...new Set(items.map((i) => i.dataset))].sort();
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "  n/a" : x.toFixed(3));

/** One row of the side-by-side table. */
function row(judge: string, source: string, a: Agreement): string {
  const k = a.kappa;
  const kappa = k.kappa === null ? "undefined".padEnd(22) : `${f3(k.kappa)} [${f3(k.ci?.lo)}, ${f3(k.ci?.hi)}]`;
  return `  ${judge.padEnd(28)} ${source.padEnd(19)} ${String(a.n).padStart(5)}  ${kappa.padEnd(22)}  ${f3(a.accuracy)}     ${f3(a.macroF1)}   ${f3(a.tpr)}  ${f3(a.tnr)}`;
}

async function main(args: string[]): Promise<number> {
  const file = dataFileOrSkip(flagValue(args, "--data"), "attribution:baseline");
  if (!file) return 0;
  const keep = args.includes("--keep");
  const { dir } = convertFile(file);
  try {
    const items = readBack(dir);
    const rows = loadAttributionRows(file);
    const started = performance.now();
    const fold = questionFolds(rows);
    const foldOf = new Map(rows.map((r, i) => [r.id, fold[i]!]));
    const nested = nestedModels(trainingRows(rows, fold));
    const learned = nested.map(({ model }) => createBaselineJudge(DEFAULT_THRESHOLDS, { support: "learned", model: { ...SUPPORT_MODEL, ...model } }));
    const fitted = performance.now();
    const rule = createBaselineJudge(DEFAULT_THRESHOLDS, RULE);
    const scored = items.map((i) => {
      const claim = i.evidence.sentence ?? i.evidence.answer ?? "";
      const refs = i.evidence.cited ? [i.evidence.cited.text] : (i.evidence.context ?? []).map((c) => c.text);
      return { i, fold: foldOf.get(i.key.question)!, overlap: tokenOverlap(claim, refs) };
    });
    const judges = ["learned support model", "previous rule", "token-overlap anchor"] as const;
    const judged = new Map<string, JudgedItem[]>(judges.map((j) => [j, []]));
    for (const rubric of ["faithfulness", "citation-accuracy"]) {
      const of = scored.filter((s) => s.i.key.rubric === rubric);
      const cut = Array.from({ length: FOLDS }, (_, f) => fitOverlapThreshold(of.filter((s) => s.fold !== f).map((s) => ({ overlap: s.overlap, label: s.i.label }))));
      for (const { i, fold: f, overlap } of of) {
        const base = { rubric, half: i.half, dataset: i.dataset, label: i.label };
        judged.get(judges[0])!.push({ ...base, verdict: learned[f]!(rubric, i.evidence).verdict });
        judged.get(judges[1])!.push({ ...base, verdict: rule(rubric, i.evidence).verdict });
        judged.get(judges[2])!.push({ ...base, verdict: overlap >= cut[f]! ? "yes" : "no" });
      }
    }
    const done = performance.now();

    console.log(`Baseline judge ${BASELINE_VERSION} on ${file} (${rows.length} claims)`);
    console.log(`  learned support model: ${SUPPORT_MODEL.name} v${SUPPORT_MODEL.version}, ${SUPPORT_MODEL.features.length} features (${SUPPORT_MODEL.features.join(", ")})`);
    console.log(`  shipped fingerprints: faithfulness ${baselineFingerprint("faithfulness").slice(0, 12)}, citation-accuracy ${baselineFingerprint("citation-accuracy").slice(0, 12)}; previous rule: ${baselineFingerprint("faithfulness", DEFAULT_THRESHOLDS, RULE).slice(0, 12)}, ${baselineFingerprint("citation-accuracy", DEFAULT_THRESHOLDS, RULE).slice(0, 12)}`);
    console.log(`  nested ${FOLDS}-fold cross-validation, folds by question (seed ${FOLD_SEED}); lambda chosen inside each outer fold: ${nested.map((n) => n.lambda).join(", ")}`);
    console.log(`  every figure of the learned model and the anchor is out of fold; the previous rule has nothing to fit (its threshold was chosen on 200 AttributionBench development claims, the tuning half of attribution-dev.jsonl)`);
    console.log(`  features and ${FOLDS} nested fits in ${((fitted - started) / 1000).toFixed(1)} s; ${items.length} items judged three ways in ${((done - fitted) / 1000).toFixed(1)} s\n`);

    const sections: [string, string][] = [["faithfulness", "each claim against all its references"], ["citation-accuracy", "claims with a single reference, against it"]];
    for (const [rubric, what] of sections) {
      const of = (judge: string) => judged.get(judge)!.filter((j) => j.rubric === rubric);
      console.log(`${rubric} (${what}): Cohen's kappa with its asymptotic 95% interval`);
      console.log(`  ${"judge".padEnd(28)} ${"source".padEnd(19)} ${"n".padStart(5)}  ${"kappa [95% CI]".padEnd(22)}  accuracy  macro-F1  TPR    TNR`);
      for (const judge of judges) {
        const all = of(judge);
        console.log(row(judge, "all", agreement(all)));
        for (const ds of SOURCES_OF(all)) console.log(row("", ds, agreement(all.filter((j) => j.dataset === ds))));
      }
      const a = agreement(of(judges[0]));
      const d = kappaDifference(of(judges[0]), of(judges[1]));
      const half = a.kappa.ci ? (a.kappa.ci.hi - a.kappa.ci.lo) / 2 : null;
      const ci = d.bootstrap.ci ? `[${f3(d.bootstrap.ci.lo)}, ${f3(d.bootstrap.ci.hi)}]` : `(${d.bootstrap.reason})`;
      const beats = d.difference !== null && half !== null && d.difference > half;
      console.log(`  learned minus previous rule: kappa ${d.difference === null ? "n/a" : (d.difference >= 0 ? "+" : "") + f3(d.difference)}, paired bootstrap 95% CI ${ci}; ` +
        `the learned model's interval half-width is ${f3(half)}: ${beats ? "the gain is larger" : "the gain is NOT larger"}\n`);
    }

    if (args.includes("--sweep")) printSweep(items);
    if (keep) {
      console.log(`\nconverted files kept in ${dir} (ragjudge.config.json, golden, chunks, output, labels/, items.jsonl); the shipped judge's figures through the CLI (in-sample for the learned model: it was fitted on these claims):`);
      console.log(`  ragjudge judge --config ${join(dir, "ragjudge.config.json")} && ragjudge calibrate --config ${join(dir, "ragjudge.config.json")}`);
    }
    return 0;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  process.exitCode = reportError(e);
}
